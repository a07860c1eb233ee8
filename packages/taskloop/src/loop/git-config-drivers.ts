import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { GitDirs } from './git-dir.js';

/** How deep `include.path` chains are followed: git's own limit. */
const MAX_INCLUDE_DEPTH = 10;

/**
 * The names of the filter drivers (`[filter "<name>"]`) that the repository's own config files
 * define: `config`, `config.worktree` and every file they include (`include.path`, and
 * `includeIf.*.path` whatever its condition). These files are in `.git`, which the builder can
 * write, and a filter's `clean`, `smudge` or `process` is a program git runs on `git add`,
 * `git status` and `git switch`. Unlike `core.hooksPath` a filter is keyed by a name only the
 * config knows, so disabling them means listing them first. Read here rather than asked of git
 * (`git config --get-regexp`) because it happens before every git command of the loop (the
 * builder may add one between two commits) and a process per command would double their cost.
 * Erring towards more names is harmless: disabling a name nothing uses changes nothing.
 */
export function repositoryFilterDrivers(dirs: GitDirs): ReadonlySet<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string, depth: number): void => {
    if (depth > MAX_INCLUDE_DEPTH || seen.has(file)) return;
    seen.add(file);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    let section = '';
    for (const line of text.split(/\r?\n/)) {
      const header = SECTION_HEADER.exec(line);
      if (header !== null) {
        const [, rawSection = '', quoted] = header;
        const dot = rawSection.indexOf('.');
        // `[filter "name"]` keeps the name's case; the old `[filter.name]` form lowercases it.
        section = (dot < 0 ? rawSection : rawSection.slice(0, dot)).toLowerCase();
        const subsection =
          quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : dot < 0 ? undefined : rawSection.slice(dot + 1).toLowerCase();
        if (section === 'filter' && subsection !== undefined) names.add(subsection);
      }
      // A variable may follow the header on the same line; only include paths matter here.
      if (section !== 'include' && section !== 'includeif') continue;
      const path = INCLUDE_PATH.exec(header === null ? line : line.slice(header[0].length))?.[1];
      if (path !== undefined) visit(includedFile(configValue(path), file), depth + 1);
    }
  };
  visit(join(dirs.commonDir, 'config'), 0);
  visit(join(dirs.commonDir, 'config.worktree'), 0);
  visit(join(dirs.gitDir, 'config.worktree'), 0);
  return names;
}

/** `[section]`, `[section "subsection"]` or the old `[section.subsection]`. */
const SECTION_HEADER = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\.)*)")?\s*\]/;
const INCLUDE_PATH = /^\s*path\s*=\s*(.*)$/i;

/** A config value as git reads it: quotes removed, a trailing comment dropped, escapes undone. */
function configValue(raw: string): string {
  let value = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i += 1) {
    const char = raw[i] ?? '';
    if (char === '\\') {
      const next = raw[i + 1] ?? '';
      value += ({ n: '\n', t: '\t', b: '\b' } as Record<string, string>)[next] ?? next;
      i += 1;
    } else if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '#' || char === ';')) break;
    else value += char;
  }
  return value.trim();
}

/** Where an include path points: `~/` is the home folder, a relative path is beside the including file. */
function includedFile(path: string, from: string): string {
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return isAbsolute(path) ? path : resolve(dirname(from), path);
}
