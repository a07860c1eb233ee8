import { looksLikeSecretValue } from './generic-secrets.js';

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

/**
 * Variable names that by convention hold a credential: a whole word of the name (`*_TOKEN`,
 * `*_API_KEY`, `GITHUB_PAT`, `SENTRY_DSN`, `SLACK_WEBHOOK_URL`, `CONNECTION_STRING`), or a
 * password suffix glued on (`PGPASSWORD`, `MYSQL_PWD`). Fragments that also name harmless things
 * (`SESSION`, `KEY` in `XKB_KEYMAP`, `AUTH` in `XAUTHORITY`) are not enough.
 */
const SECRET_NAME =
  /(?:^|_)(?:API_?KEY|ACCESS_?KEY|SECRET(?:_?ACCESS)?(?:_?KEY)?|PRIVATE_?KEY|SIGNING_?KEY|ENCRYPTION_?KEY|MASTER_?KEY|ACCOUNT_?KEY|KEY|TOKEN|PAT|PASS|PASSPHRASE|CREDENTIALS?|AUTH_?TOKEN|DSN|WEBHOOK(?:_?URL)?|CONNECTION_?STRING|CONN_?STR)(?:_|$)|(?:PASSWORD|PASSWD|PWD)$/i;
/** The shell's working directories, whose names end like a password variable's. */
const NOT_SECRET_NAMES = new Set(['PWD', 'OLDPWD']);
/** A URL that carries a password (`scheme://user:password@host`, the user may be empty). */
const URL_WITH_PASSWORD = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/@:]*:[^\s@/]+@/;

/**
 * The values of the variables in `source` that hold credentials, for `redactSecrets`: even a
 * variable that never reached the child may have been written into a file the child prints.
 * A value is taken when
 * - it contains a URL with a password (`DATABASE_URL`, `REDIS_URL`, whatever the name), or
 * - its name is credential-like (`SECRET_NAME`) and the value looks like a secret: a password
 *   (`*PASSWORD`, `*_PWD`) of at least 6 characters; anything else at least 8 characters, of two
 *   kinds of character and 3 bits of entropy per character, never a placeholder (`changeme`,
 *   `${VAR}`, `xxxx`) — so `DESKTOP_SESSION=ubuntu` or `TOKEN_TTL=3600` redact nothing.
 * For a URL, its password alone is listed too, so that it goes wherever it is printed.
 */
export function secretValuesFrom(source: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (typeof value !== 'string' || value.length < 6 || NOT_SECRET_NAMES.has(name.toUpperCase())) continue;
    const url = URL_WITH_PASSWORD.exec(value);
    if (url !== null) {
      values.push(value);
      const password = /:([^\s@/:]+)@$/.exec(url[0])?.[1];
      if (password !== undefined && password.length >= 6) values.push(password);
    } else if (SECRET_NAME.test(name) && looksLikeSecretValue(name, value)) {
      values.push(value);
    }
  }
  return values;
}
