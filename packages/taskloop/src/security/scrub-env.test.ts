import { describe, expect, it } from 'vitest';
import { SAFE_ENV_VARS, scrubbedEnv, secretValuesFrom } from './scrub-env.js';

const source = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  LANG: 'C.UTF-8',
  TMPDIR: '/tmp',
  ANTHROPIC_API_KEY: 'sk-ant-secret-value',
  OPENAI_API_KEY: 'sk-openai-secret',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-value',
  GITHUB_TOKEN: 'ghp_tokenvalue',
  NODE_OPTIONS: '--require ./evil.js',
  DATABASE_URL: 'postgres://localhost/db',
  EMPTY: '',
};

describe('scrubbedEnv', () => {
  it('keeps only the safe list', () => {
    expect(scrubbedEnv(source)).toEqual({ PATH: '/usr/bin', HOME: '/home/me', LANG: 'C.UTF-8', TMPDIR: '/tmp' });
  });

  it('adds exactly the named variables, provider keys only when named', () => {
    expect(scrubbedEnv(source, ['DATABASE_URL', 'MISSING', 'EMPTY'])).toEqual({ PATH: '/usr/bin', HOME: '/home/me', LANG: 'C.UTF-8', TMPDIR: '/tmp', DATABASE_URL: 'postgres://localhost/db', EMPTY: '' });
    expect(scrubbedEnv(source, ['ANTHROPIC_API_KEY']).ANTHROPIC_API_KEY).toBe('sk-ant-secret-value');
    expect(scrubbedEnv(source, ['DATABASE_URL'])).not.toHaveProperty('OPENAI_API_KEY');
  });

  it('lists no variable that can load code or carries a credential', () => {
    expect(SAFE_ENV_VARS).not.toContain('NODE_OPTIONS');
    expect(SAFE_ENV_VARS.filter((name) => /KEY|TOKEN|SECRET|PASS/.test(name))).toEqual([]);
  });
});

describe('secretValuesFrom', () => {
  it('collects values of credential-named variables', () => {
    expect(secretValuesFrom(source).sort()).toEqual(['aws-secret-value', 'ghp_tokenvalue', 'sk-ant-secret-value', 'sk-openai-secret'].sort());
  });

  it('ignores short values and ordinary names', () => {
    expect(secretValuesFrom({ MY_TOKEN: 'abc', KEYBOARD: 'qwertyuiop', MONKEY: 'banana-bread' })).toEqual([]);
  });
});
