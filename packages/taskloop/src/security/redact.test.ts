import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAKE_SECRETS } from '../test-support/fake-secrets.js';
import { redactSecrets } from './redact.js';

const pem = FAKE_SECRETS.rsaPrivateKey;

describe('redactSecrets', () => {
  it.each([
    ['aws_access_key', `key ${FAKE_SECRETS.awsAccessKey} used`, 'key [REDACTED:aws_access_key] used'],
    ['aws_secret_key', `aws_secret_access_key = ${FAKE_SECRETS.awsSecretKey}`, 'aws_secret_access_key = [REDACTED:aws_secret_key]'],
    ['github_token (ghp_)', `token=${FAKE_SECRETS.githubToken}`, 'token=[REDACTED:github_token]'],
    ['github_token (gho_)', FAKE_SECRETS.githubOauthToken, '[REDACTED:github_token]'],
    ['github_token (github_pat_)', FAKE_SECRETS.githubPat, '[REDACTED:github_token]'],
    ['gitlab_token', FAKE_SECRETS.gitlabToken, '[REDACTED:gitlab_token]'],
    ['slack_token', FAKE_SECRETS.slackToken, '[REDACTED:slack_token]'],
    ['anthropic_key', `ANTHROPIC_API_KEY=${FAKE_SECRETS.anthropicKey}`, 'ANTHROPIC_API_KEY=[REDACTED:anthropic_key]'],
    ['openai_key', FAKE_SECRETS.openaiKey, '[REDACTED:openai_key]'],
    ['openai_key (sk-proj-)', `"${FAKE_SECRETS.openaiProjectKey}"`, '"[REDACTED:openai_key]"'],
    ['google_api_key', FAKE_SECRETS.googleApiKey, '[REDACTED:google_api_key]'],
    ['stripe_key', FAKE_SECRETS.stripeKey, '[REDACTED:stripe_key]'],
    ['jwt', FAKE_SECRETS.jwt, '[REDACTED:jwt]'],
    ['bearer_token', 'Authorization: Bearer abc.def-ghi_jkl~mno+pqr/stu=', 'Authorization: Bearer [REDACTED:bearer_token]'],
    ['url_password', 'postgres://admin:hunter2secret@db.local:5432/app', 'postgres://admin:[REDACTED:url_password]@db.local:5432/app'],
    ['private_key', `before\n${pem}\nafter`, 'before\n[REDACTED:private_key]\nafter'],
    ['private_key cut off by truncation', `x\n${FAKE_SECRETS.opensshKeyHead}\nb3BlbnNzaC1rZXktdjEAAAA\n… [truncated 99 bytes]`, 'x\n[REDACTED:private_key]'],
  ])('redacts %s', (_kind, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('leaves ordinary text alone', () => {
    const text = 'npm test passed: 12 tests, task-ask-skeleton, mask-input, sk-short, Bearer of bad news';
    expect(redactSecrets(text)).toBe(text);
  });

  it('redacts the literal values of the given secrets, longest first', () => {
    expect(redactSecrets('db pass is s3cr3t-value and again s3cr3t-value!', ['s3cr3t-value'])).toBe('db pass is [REDACTED:secret] and again [REDACTED:secret]!');
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
      fc.property(fc.string(), fc.string({ minLength: 6 }), fc.string(), fc.array(fc.string({ minLength: 6 }), { maxLength: 3 }), (before, secret, after, others) => {
        const output = redactSecrets(before + secret + after, [...others, secret]);
        expect(output).not.toContain(secret);
        for (const other of others) expect(output).not.toContain(other);
      }),
      { numRuns: 500 },
    );
  });

  it('never lets a value through when texts and values share a small alphabet (property)', () => {
    const unit = fc.constantFrom('a', 'b', 'R', 'E', 'D', ']', '[', ':', 's', 'e', 'c', 'r', 't');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), fc.string({ unit, minLength: 6, maxLength: 10 }), fc.string({ unit, maxLength: 30 }), (before, secret, after) => {
        expect(redactSecrets(before + secret + after, [secret])).not.toContain(secret);
      }),
      { numRuns: 1000 },
    );
  });
});
