import { describe, expect, it } from 'vitest';
import { FAKE_SECRETS } from '../test-support/fake-secrets.js';
import { SAFE_ENV_VARS, scrubbedEnv, secretValuesFrom } from './scrub-env.js';

const source = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  LANG: 'C.UTF-8',
  TMPDIR: '/tmp',
  ANTHROPIC_API_KEY: 'sk-ant-Secret-Value-9f3k',
  OPENAI_API_KEY: 'sk-openai-Secret-42x',
  AWS_SECRET_ACCESS_KEY: 'aws/Secret+Value/8Kq2',
  GITHUB_TOKEN: 'ghp_tokenValue12',
  NODE_OPTIONS: '--require ./evil.js',
  DATABASE_URL: 'postgres://localhost/db',
  EMPTY: '',
};

describe('scrubbedEnv', () => {
  it('keeps only the safe list', () => {
    expect(scrubbedEnv(source)).toEqual({ PATH: '/usr/bin', HOME: '/home/me', LANG: 'C.UTF-8', TMPDIR: '/tmp' });
  });

  it('adds exactly the named variables, provider keys only when named', () => {
    expect(scrubbedEnv(source, ['DATABASE_URL', 'MISSING', 'EMPTY'])).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      TMPDIR: '/tmp',
      DATABASE_URL: 'postgres://localhost/db',
      EMPTY: '',
    });
    expect(scrubbedEnv(source, ['ANTHROPIC_API_KEY']).ANTHROPIC_API_KEY).toBe('sk-ant-Secret-Value-9f3k');
    expect(scrubbedEnv(source, ['DATABASE_URL'])).not.toHaveProperty('OPENAI_API_KEY');
  });

  it('lists no variable that can load code or carries a credential', () => {
    expect(SAFE_ENV_VARS).not.toContain('NODE_OPTIONS');
    expect(SAFE_ENV_VARS.filter((name) => /KEY|TOKEN|SECRET|PASS/.test(name))).toEqual([]);
  });
});

describe('secretValuesFrom', () => {
  it('collects values of credential-named variables', () => {
    expect(secretValuesFrom(source).sort()).toEqual(
      ['aws/Secret+Value/8Kq2', 'ghp_tokenValue12', 'sk-ant-Secret-Value-9f3k', 'sk-openai-Secret-42x'].sort(),
    );
  });

  it.each([
    ['DATABASE_URL', 'postgres://app:Pg-pass-81@db.internal:5432/app'],
    ['REDIS_URL', 'redis://:r3dis-Pw-7@cache:6379/0'],
    ['PGPASSWORD', 'hunter2-pg'],
    ['MYSQL_PWD', 'my5ql-pass'],
    ['SENTRY_DSN', 'https://4f8c1d2e9a7b@o123456.ingest.sentry.io/789'],
    ['SLACK_WEBHOOK_URL', FAKE_SECRETS.slackWebhook],
    ['CONNECTION_STRING', 'Server=db;Database=app;User Id=sa;Password=Str0ng-Pass;'],
    ['GITHUB_PAT', FAKE_SECRETS.githubPatShort],
  ])('collects %s', (name, value) => {
    expect(secretValuesFrom({ [name]: value })).toContain(value);
  });

  it('also lists the password of a URL alone, so it goes wherever it is printed', () => {
    expect(secretValuesFrom({ ANY_NAME: 'postgres://app:Pg-pass-81@db/app' })).toEqual(['postgres://app:Pg-pass-81@db/app', 'Pg-pass-81']);
  });

  it.each([
    ['DESKTOP_SESSION', 'ubuntu'],
    ['MY_TOKEN', 'abc'],
    ['KEYBOARD', 'qwertyuiop'],
    ['MONKEY', 'banana-bread'],
    ['XKB_KEYMAP', 'us-intl-variant'],
    ['TOKEN_TTL', '3600'],
    ['API_KEY', 'changeme-please'],
    ['SECRET_NAME', 'my-app-secrets'],
    ['PWD', '/home/me/project'],
    ['OLDPWD', '/home/me'],
    ['DATABASE_URL', 'postgres://localhost/db'],
  ])('leaves %s=%s alone: a name fragment, a short or common value, a placeholder, no password', (name, value) => {
    expect(secretValuesFrom({ [name]: value })).toEqual([]);
  });
});
