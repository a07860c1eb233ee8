/** A path into a structure, as zod reports it: keys and array indexes. */
export type IssuePath = readonly (string | number)[];

/** Renders a path as `phases[1].members[0].id`. */
export function formatPath(path: IssuePath): string {
  let out = '';
  for (const segment of path) {
    out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  }
  return out === '' ? '(root)' : out;
}
