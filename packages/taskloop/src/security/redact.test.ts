import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAKE_SECRETS } from '../test-support/fake-secrets.js';
import { redactSecrets } from './redact.js';

const pem = FAKE_SECRETS.rsaPrivateKey;

describe('redactSecrets', () => {
  it.each([
    ['aws_access_key', `key ${FAKE_SECRETS.awsAccessKey} used`, 'key [REDACTED:aws_access_key] used'],
    ['aws_secret_key', `aws_secret_access_key = ${FAKE_SECRETS.awsSecretKey}`, '[REDACTED:aws]'],
    ['github_token (ghp_)', `token=${FAKE_SECRETS.githubToken}`, 'token=[REDACTED:github]'],
    ['github_token (gho_)', FAKE_SECRETS.githubOauthToken, '[REDACTED:github]'],
    ['github_token (github_pat_)', FAKE_SECRETS.githubPat, '[REDACTED:github]'],
    ['gitlab_token', FAKE_SECRETS.gitlabToken, '[REDACTED:gitlab]'],
    ['slack_token', FAKE_SECRETS.slackToken, '[REDACTED:slack]'],
    ['anthropic_key', `ANTHROPIC_API_KEY=${FAKE_SECRETS.anthropicKey}`, 'ANTHROPIC_API_KEY=[REDACTED:credential]'],
    ['openai_key', FAKE_SECRETS.openaiKey, '[REDACTED:openai]'],
    ['openai_key (sk-proj-)', `"${FAKE_SECRETS.openaiProjectKey}"`, '"[REDACTED:openai]"'],
    ['google_api_key', FAKE_SECRETS.googleApiKey, '[REDACTED:google_api_key]'],
    ['stripe_key', FAKE_SECRETS.stripeKey, '[REDACTED:stripe]'],
    ['jwt', FAKE_SECRETS.jwt, '[REDACTED:jwt]'],
    ['bearer_token', 'Authorization: Bearer abc.def-ghi_jkl~mno+pqr/stu=', 'Authorization: Bearer [REDACTED:authorization]'],
    ['url_password', 'postgres://admin:hunter2secret@db.local:5432/app', '[REDACTED:database_connection_string]'],
    ['private_key', `before\n${pem}\nafter`, 'before\n[REDACTED:private_key]\nafter'],
    [
      'private_key cut off by truncation',
      `x\n${FAKE_SECRETS.opensshKeyHead}\nb3BlbnNzaC1rZXktdjEAAAA\n… [truncated 99 bytes]`,
      'x\n[REDACTED:private_key]',
    ],
  ])('redacts %s', (_kind, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it.each([
    ['an .npmrc auth token', `//registry.npmjs.org/:_authToken=${FAKE_SECRETS.npmToken}`, FAKE_SECRETS.npmToken],
    ['password=', 'password=Sup3rS3cret!', 'Sup3rS3cret!'],
    ['DB_PASSWORD=', 'DB_PASSWORD=hunter2x', 'hunter2x'],
    ['api_key:', `api_key: ${FAKE_SECRETS.hexApiKey}`, FAKE_SECRETS.hexApiKey],
    ['a JSON "password"', '{"password": "s3cr3t-P4ss"}', 's3cr3t-P4ss'],
    ['client_secret=', 'client_secret=Xy9Kq2LmN8pR4tV6', 'Xy9Kq2LmN8pR4tV6'],
    ['Authorization: Basic', 'Authorization: Basic dXNlcjpwYXNzd29yZDEyMw==', 'dXNlcjpwYXNzd29yZDEyMw=='],
    ['x-api-key', `x-api-key: ${FAKE_SECRETS.hexHeaderKey}`, FAKE_SECRETS.hexHeaderKey],
    [
      'Azure AccountKey=',
      `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${FAKE_SECRETS.azureAccountKey};EndpointSuffix=core.windows.net`,
      FAKE_SECRETS.azureAccountKey,
    ],
    ['a JWT with an empty signature', `${FAKE_SECRETS.jwt.split('.').slice(0, 2).join('.')}.`, FAKE_SECRETS.jwt.split('.')[1] ?? ''],
    ['AWS SecretAccessKey in aws sts JSON', `"SecretAccessKey": "${FAKE_SECRETS.awsSecretKey}"`, FAKE_SECRETS.awsSecretKey],
    ['AWS SessionToken in aws sts JSON', `"SessionToken": "${FAKE_SECRETS.awsSessionToken}"`, FAKE_SECRETS.awsSessionToken],
    ['redis://:pw@host', 'redis://:p4ssw0rdXy@cache:6379/0', 'p4ssw0rdXy'],
    ['JDBC ?password=', 'jdbc:postgresql://db:5432/app?user=app&password=Pa55w0rdX', 'Pa55w0rdX'],
    ['a URL password containing @', 'https://user:p@ss@w0rd-tail@example.org/path', 'w0rd-tail'],
  ])('redacts %s', (_what, input, secret) => {
    const output = redactSecrets(input);
    expect(output).toContain('[REDACTED:');
    expect(output).not.toContain(secret);
  });

  it.each([
    ['runs-on: ubuntu-latest'],
    ['secretName: my-app-secrets'],
    ['password: ${DB_PASSWORD}'],
    ['api_key = "<your-api-key>"'],
    ['token: xxxxxxxxxxxxxxxx'],
    ['password=changeme'],
    [FAKE_SECRETS.awsDocExampleKey],
    ['max_tokens = 4096'],
  ])('leaves the placeholder or harmless line %s alone', (line) => {
    expect(redactSecrets(line)).toBe(line);
  });

  // A builder that prints a secret with a placeholder word glued to it (`echo "${KEY}xxxx"`) must
  // not get it spared as a placeholder: the words only spare a value that is no secret without them.
  const GLUE = ['xxxx', '_fake', '-sample', 'EXAMPLE', 'xxxx_dummy'];
  it.each([
    ['an openai project key', FAKE_SECRETS.openaiProjectKey],
    ['an anthropic key', FAKE_SECRETS.anthropicKey],
    ['a JWT', FAKE_SECRETS.jwt],
    ['a fine-grained github token', FAKE_SECRETS.githubPat],
  ])('redacts %s with a placeholder word glued to it', (_what, secret) => {
    for (const glue of GLUE) expect(redactSecrets(`using ${secret}${glue} here`)).not.toContain(secret.slice(-12));
  });

  it.each([
    ['a github token', FAKE_SECRETS.githubToken],
    ['an npm token', FAKE_SECRETS.npmToken],
    ['an aws access key', FAKE_SECRETS.awsAccessKey],
    ['an anthropic key', FAKE_SECRETS.anthropicKey],
  ])('redacts %s assigned with a placeholder word glued to it', (_what, secret) => {
    for (const glue of GLUE)
      for (const line of [`API_TOKEN=${secret}${glue}`, `"api_key": "${glue}${secret}"`])
        expect(redactSecrets(line), line).not.toContain(secret.slice(-12));
  });

  it.each([
    ['a password= value', 'password=Sup3rS3cret!xxxx', 'Sup3rS3cret!'],
    ['a client_secret= value', 'client_secret=Xy9Kq2LmN8pR4tV6_sample', 'Xy9Kq2LmN8pR4tV6'],
    ['an Authorization: Bearer value', 'Authorization: Bearer abc.def-ghi_jkl~mno+pqr/stu=-fake', 'ghi_jkl~mno+pqr'],
    ['a URL password', 'https://user:Pa55w0rdXy9example@host.org/', 'Pa55w0rdXy9'],
    ['a password with a word in it', 'MYSQL_PWD=dummy#Prod2024', '#Prod2024'],
  ])('redacts %s with a placeholder part', (_what, line, secret) => {
    expect(redactSecrets(line)).not.toContain(secret);
  });

  it('leaves its own markers alone: redacting twice gives what redacting once gives', () => {
    const line =
      'DB_PASSWORD=Corr3ctH0rse9 api_key: Zq8vKx2pL9wR4tY7uI0oP3aS6dF1 {"client_secret": "Xy9Kq2LmN8pR4tV6"} Authorization: Bearer Zq8vKx2pL9wR4tY7uI0oP3aS6dF1';
    const once = redactSecrets(line);
    expect(once).not.toContain('Corr3ctH0rse9');
    expect(redactSecrets(once)).toBe(once);
    expect(redactSecrets(redactSecrets(once))).toBe(once);
  });

  it('leaves ordinary text alone', () => {
    const text = 'npm test passed: 12 tests, task-ask-skeleton, mask-input, sk-short, Bearer of bad news';
    expect(redactSecrets(text)).toBe(text);
  });

  it('redacts the literal values of the given secrets, longest first', () => {
    expect(redactSecrets('db pass is s3cr3t-value and again s3cr3t-value!', ['s3cr3t-value'])).toBe(
      'db pass is [REDACTED:secret] and again [REDACTED:secret]!',
    );
    expect(redactSecrets('abcdefghij', ['abcdef', 'abcdefghij'])).toBe('[REDACTED:secret]');
  });

  it('ignores values shorter than 6 characters', () => {
    expect(redactSecrets('true 12345', ['true', '12345'])).toBe('true 12345');
  });

  it('does not let a replacement spell a value again', () => {
    // The marker ends in "ret]"; a value starting that way must not reappear after a replacement.
    expect(redactSecrets('ret]abcret]abc', ['ret]abc'])).not.toContain('ret]abc');
    expect(redactSecrets('the word REDACTED', ['REDACTED'])).not.toContain('REDACTED');
  });

  it('never lets an inserted secret value through (property)', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ minLength: 6 }),
        fc.string(),
        fc.array(fc.string({ minLength: 6 }), { maxLength: 3 }),
        (before, secret, after, others) => {
          const output = redactSecrets(before + secret + after, [...others, secret]);
          expect(output).not.toContain(secret);
          for (const other of others) expect(output).not.toContain(other);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never lets a value through when texts and values share a small alphabet (property)', () => {
    const unit = fc.constantFrom('a', 'b', 'R', 'E', 'D', ']', '[', ':', 's', 'e', 'c', 'r', 't');
    fc.assert(
      fc.property(
        fc.string({ unit, maxLength: 30 }),
        fc.string({ unit, minLength: 6, maxLength: 10 }),
        fc.string({ unit, maxLength: 30 }),
        (before, secret, after) => {
          expect(redactSecrets(before + secret + after, [secret])).not.toContain(secret);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('redactSecrets on a long log', () => {
  it('finds in a log over 64 KB, scanned line by line, what it finds in each line alone', () => {
    const lines = [
      'PASS src/greet.test.ts (12 ms)',
      `pushing with ${FAKE_SECRETS.githubToken}`,
      'npm WARN deprecated inflight@1.0.6: This module is not supported',
      `password=Sup3rS3cret!`,
      FAKE_SECRETS.rsaPrivateKey,
      'postgres://admin:hunter2secret@db.local:5432/app',
      `  "SecretAccessKey": "${FAKE_SECRETS.awsSecretKey}",`,
      '    at Object.<anonymous> (/home/ci/work/app/src/index.ts:42:13)',
    ];
    const log = Array.from({ length: 2_000 }, (_, i) => lines[i % lines.length] ?? '').join('\n');
    expect(log.length).toBeGreaterThan(64 * 1024);
    expect(redactSecrets(log)).toBe(Array.from({ length: 2_000 }, (_, i) => redactSecrets(lines[i % lines.length] ?? '')).join('\n'));
  });
});
