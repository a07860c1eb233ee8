/**
 * The redaction benchmark's corpus: lines that hold a secret (the formats of the rule set's
 * detectors and of the task loop's own rules, in the contexts they turn up in: logs, config,
 * env files, JSON, headers, URLs) and lines that must come through unchanged (placeholders from
 * documentation and config templates, ordinary build and test output).
 *
 * Secrets are generated from a seeded generator at run time, never written out: no file of the
 * repository holds a string a secret scanner would flag, and each run sees the same corpus.
 */

/** A line holding `secret`; redaction must leave no trace of it. */
export interface PositiveLine {
  readonly format: string;
  readonly line: string;
  readonly secret: string;
}

/** A small deterministic generator (mulberry32), so the corpus is the same on every run. */
function generator(seed: number): (alphabet: string, length: number) => string {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (alphabet, length) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALNUM = LOWER + UPPER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}-_`;

/** Formats and how each is written: the secret, and lines that carry it. */
function formats(
  random: (alphabet: string, length: number) => string,
): { readonly format: string; readonly secret: () => string; readonly contexts: readonly ((secret: string) => string)[] }[] {
  const p = (...parts: string[]): string => parts.join('');
  const plain = [(s: string) => s, (s: string) => `using ${s} for the upload`, (s: string) => `"${s}"`];
  return [
    { format: 'github classic token', secret: () => p('gh', 'p_', random(ALNUM, 36)), contexts: [...plain, (s) => `GITHUB_TOKEN=${s}`] },
    { format: 'github oauth token', secret: () => p('gh', 'o_', random(ALNUM, 36)), contexts: plain },
    { format: 'github app token', secret: () => p('gh', 's_', random(ALNUM, 36)), contexts: plain },
    { format: 'github fine-grained token', secret: () => p('github', '_pat_', random(ALNUM, 22), '_', random(ALNUM, 59)), contexts: plain },
    { format: 'gitlab token', secret: () => p('gl', 'pat-', random(URLSAFE, 20)), contexts: plain },
    {
      format: 'slack bot token',
      secret: () => p('xo', 'xb-', random(DIGITS, 12), '-', random(DIGITS, 13), '-', random(ALNUM, 24)),
      contexts: plain,
    },
    {
      format: 'slack app token',
      secret: () => p('xa', 'pp-1-A', random(UPPER + DIGITS, 10), '-', random(DIGITS, 13), '-', random(HEX, 64)),
      contexts: plain,
    },
    {
      format: 'slack webhook',
      secret: () =>
        p('https://hooks.slack.com/services/T', random(UPPER + DIGITS, 8), '/B', random(UPPER + DIGITS, 8), '/', random(ALNUM, 24)),
      contexts: [...plain, (s) => `SLACK_WEBHOOK_URL=${s}`],
    },
    {
      format: 'aws access key',
      secret: () => p('AK', 'IA', random(UPPER + DIGITS, 16)),
      contexts: [...plain, (s) => `aws_access_key_id = ${s}`],
    },
    {
      format: 'aws secret key (assignment)',
      secret: () => random(B64, 40),
      contexts: [(s) => `aws_secret_access_key = ${s}`, (s) => `AWS_SECRET_ACCESS_KEY="${s}"`, (s) => `  "SecretAccessKey": "${s}",`],
    },
    {
      format: 'aws session token (sts JSON)',
      secret: () => p('FwoGZXIvYXdz', random(B64, 120)),
      contexts: [(s) => `  "SessionToken": "${s}",`],
    },
    {
      format: 'npm token',
      secret: () => p('np', 'm_', random(ALNUM, 36)),
      contexts: [...plain, (s) => `//registry.npmjs.org/:_authToken=${s}`],
    },
    { format: 'openai key', secret: () => p('sk-', 'proj-', random(URLSAFE, 48), 'T3Blbk', 'FJ', random(URLSAFE, 48)), contexts: plain },
    {
      format: 'anthropic key',
      secret: () => p('sk-', 'ant-api03-', random(URLSAFE, 93), 'AA'),
      contexts: [...plain, (s) => `ANTHROPIC_API_KEY=${s}`],
    },
    { format: 'stripe secret key', secret: () => p('sk', '_live_', random(ALNUM, 24)), contexts: plain },
    { format: 'stripe restricted key', secret: () => p('rk', '_live_', random(ALNUM, 24)), contexts: plain },
    { format: 'stripe webhook secret', secret: () => p('wh', 'sec_', random(ALNUM, 32)), contexts: plain },
    { format: 'sendgrid key', secret: () => p('S', 'G.', random(URLSAFE, 22), '.', random(URLSAFE, 43)), contexts: plain },
    { format: 'hugging face token', secret: () => p('h', 'f_', random(LOWER + UPPER, 34)), contexts: plain },
    { format: 'google api key', secret: () => p('AI', 'za', random(URLSAFE, 35)), contexts: plain },
    { format: 'shopify token', secret: () => p('shp', 'at_', random(HEX, 32)), contexts: plain },
    {
      format: 'jwt',
      secret: () => p('ey', 'JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.', 'ey', 'J', random(URLSAFE, 40), '.', random(URLSAFE, 43)),
      contexts: plain,
    },
    {
      format: 'jwt without signature',
      secret: () => p('ey', 'JhbGciOiJub25lIn0.', 'ey', 'J', random(URLSAFE, 40), '.'),
      contexts: [(s) => `token: ${s}`, (s) => `id_token=${s}`],
    },
    {
      format: 'private key block',
      secret: () => random(B64, 64),
      contexts: [(s) => p('-----BEGIN RSA ', 'PRIVATE KEY-----\nMIIEowIBAAKCAQEA', s, '\n', s, '\n-----END RSA ', 'PRIVATE KEY-----')],
    },
    {
      format: 'postgres url password',
      secret: () => random(ALNUM, 16),
      contexts: [(s) => `postgres://app:${s}@db.internal:5432/app`, (s) => `DATABASE_URL=postgresql://app:${s}@db/app?sslmode=require`],
    },
    { format: 'mysql url password', secret: () => random(ALNUM, 16), contexts: [(s) => `mysql://root:${s}@127.0.0.1:3306/shop`] },
    {
      format: 'mongodb url password',
      secret: () => random(ALNUM, 16),
      contexts: [(s) => `mongodb+srv://svc:${s}@cluster0.example.net/db`],
    },
    { format: 'redis url, empty user', secret: () => random(ALNUM, 16), contexts: [(s) => `redis://:${s}@cache:6379/0`] },
    {
      format: 'url password containing @',
      secret: () => p(random(ALNUM, 6), '@', random(ALNUM, 8)),
      contexts: [(s) => `https://deploy:${s}@git.example.org/repo.git`],
    },
    {
      format: 'jdbc password parameter',
      secret: () => random(ALNUM, 14),
      contexts: [(s) => `jdbc:postgresql://db:5432/app?user=app&password=${s}`],
    },
    {
      format: 'password assignment',
      secret: () => p(random(UPPER, 2), random(LOWER, 5), random(DIGITS, 3), '!'),
      contexts: [
        (s) => `password=${s}`,
        (s) => `DB_PASSWORD=${s}`,
        (s) => `{"password": "${s}"}`,
        (s) => `  password: ${s}`,
        (s) => `PGPASSWORD=${s}`,
        (s) => `MYSQL_PWD=${s}`,
      ],
    },
    {
      format: 'api key assignment',
      secret: () => random(HEX, 32),
      contexts: [(s) => `api_key: ${s}`, (s) => `apiKey = "${s}"`, (s) => `x-api-key: ${s}`, (s) => `SERVICE_API_KEY=${s}`],
    },
    {
      format: 'client secret assignment',
      secret: () => random(ALNUM, 24),
      contexts: [(s) => `client_secret=${s}`, (s) => `"clientSecret": "${s}"`],
    },
    {
      format: 'token assignment',
      secret: () => random(ALNUM, 32),
      contexts: [(s) => `auth_token := "${s}"`, (s) => `DEPLOY_TOKEN=${s}`, (s) => `access_token=${s}&expires=3600`],
    },
    {
      format: 'authorization header',
      secret: () => random(B64, 28),
      contexts: [
        (s) => `Authorization: Basic ${s}==`,
        (s) => `Authorization: Bearer ${s}`,
        (s) => `curl -H "Authorization: Token ${s}" https://api.example.org`,
      ],
    },
    {
      format: 'azure account key',
      secret: () => p(random(B64, 86), '=='),
      contexts: [(s) => `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${s};EndpointSuffix=core.windows.net`],
    },
  ];
}

/** The positive lines: every format in every context, `perContext` times with fresh secrets. */
export function positiveLines(perContext = 3, seed = 22): PositiveLine[] {
  const random = generator(seed);
  return formats(random).flatMap(({ format, secret, contexts }) =>
    contexts.flatMap((context) =>
      Array.from({ length: perContext }, () => {
        const value = secret();
        return { format, line: context(value), secret: value };
      }),
    ),
  );
}

/** Lines that must come through unchanged: placeholders, look-alikes and ordinary output. */
export const NEGATIVE_LINES: readonly string[] = [
  // Placeholders of documentation and templates.
  'password=changeme',
  'password: ${DB_PASSWORD}',
  'password: "<your-password>"',
  'api_key = "<your-api-key>"',
  'API_KEY=your_api_key_here',
  'token: xxxxxxxxxxxxxxxxxxxx',
  'aws_secret_access_key = XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
  // AWS's documented example key, assembled so no scanner reads this file as holding a key.
  ['AWS_ACCESS_KEY_ID=AK', 'IAIOSFODNN7EXAMPLE'].join(''),
  'secret: {{ .Values.secret }}',
  'client_secret=%CLIENT_SECRET%',
  'export GITHUB_TOKEN=$GITHUB_TOKEN',
  'password = "********"',
  'token = "REPLACE_ME"',
  'apiKey: process.env.API_KEY',
  'DATABASE_URL=postgres://localhost:5432/app',
  'redis://localhost:6379/0',
  'https://user@github.com/org/repo.git',
  'Authorization: Bearer <token>',
  'Authorization: Bearer ${TOKEN}',
  'password: null',
  'token: true',
  'secret_key_base: placeholder-for-development',
  // Names that look secret, values that are not.
  'runs-on: ubuntu-latest',
  'DESKTOP_SESSION=ubuntu',
  'secretName: my-app-secrets',
  'max_tokens = 4096',
  'token_count: 1532',
  'tokenizer: cl100k_base',
  'passwordMinLength: 12',
  'keyboard layout: us',
  'monkey: banana',
  'primary_key: id',
  'sort_key = created_at',
  'password_reset_url: /account/reset',
  'TOKEN_TTL=3600',
  // Ordinary build and test output.
  'PASS src/greet.test.ts (12 ms)',
  '  ✓ renders the form with an email field and a submit button (3 ms)',
  'npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.',
  'added 412 packages, and audited 413 packages in 9s',
  'Test Files  12 passed (12)',
  "error TS2322: Type 'string' is not assignable to type 'number'.",
  '    at Object.<anonymous> (/home/ci/work/app/src/index.ts:42:13)',
  'commit 3f2a9c1e7b2d4f6a9c0e1b3d5f7a9c1e2b4d6f8a',
  'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'integrity sha512-abcdefghijklmnop',
  'GET /api/v1/users?page=2&limit=50 200 12ms',
  '{"level":"info","msg":"server started","port":8080}',
  'uuid: 123e4567-e89b-12d3-a456-426614174000',
  'Downloading https://registry.npmjs.org/typescript/-/typescript-5.9.3.tgz',
  'warning: LF will be replaced by CRLF in src/app.ts.',
  'See https://docs.example.org/auth#tokens for how to create a token.',
  'The password must be at least 12 characters long.',
  'Use `--token` to pass a token on the command line.',
  "TypeError: Cannot read properties of undefined (reading 'key')",
  'key: value',
  'docker run -e POSTGRES_PASSWORD -p 5432:5432 postgres:16',
  'ssh-keygen -t ed25519 -C "ci@example.org"',
  'base64: aGVsbG8gd29ybGQ=',
  'Bearer of bad news',
  'task-ask-skeleton mask-input sk-short',
];

/** Output lines a gate log is made of, for the throughput figure. */
export const LOG_LINES: readonly string[] = NEGATIVE_LINES.slice(NEGATIVE_LINES.indexOf('PASS src/greet.test.ts (12 ms)'));
