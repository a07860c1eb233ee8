/**
 * The variables every child gets when the parent has them: enough to find programs (PATH), write
 * temp files and caches (HOME, TMPDIR), and print text sanely (LANG, TERM, TZ). Nothing here
 * carries a credential. NODE_OPTIONS and the like are absent on purpose: they can load code.
 */
export const SAFE_ENV_VARS: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'TERM',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TZ',
  'CI',
  // Windows needs these to start most programs at all.
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
];

/**
 * A minimal environment for gates and builders: the short `SAFE_ENV_VARS` list plus exactly the
 * variables named in `allow`. Provider keys (ANTHROPIC_API_KEY, OPENAI_API_KEY, ...), cloud
 * credentials and tokens never reach a child unless named, so a test script or a model-written
 * build step cannot read and print them. Unset and empty-named variables are skipped.
 *
 * @example
 * runProcess({ ..., env: scrubbedEnv(process.env, ['DATABASE_URL']) });
 */
export function scrubbedEnv(source: NodeJS.ProcessEnv, allow: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...SAFE_ENV_VARS, ...allow]) {
    const value = source[name];
    if (name !== '' && typeof value === 'string') env[name] = value;
  }
  return env;
}

/** Variable names that by convention hold a credential. */
const SECRET_NAME = /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH|PRIVATE_KEY|SESSION)(?:_|$)/i;

/**
 * The values of the variables in `source` that look like credentials by name (`*_API_KEY`,
 * `*_TOKEN`, `*_SECRET`, `*_PASSWORD`, ...), for `redactSecrets`: even a variable that never
 * reached the child may have been written into a file the child prints. Values shorter than 6
 * characters are left out (redacting "1" or "true" would shred every log).
 */
export function secretValuesFrom(source: NodeJS.ProcessEnv): string[] {
  return Object.entries(source).flatMap(([name, value]) => (typeof value === 'string' && value.length >= 6 && SECRET_NAME.test(name) ? [value] : []));
}
