import { adaptersFromEnv } from '@conclave/providers';
import { describe, expect, it } from 'vitest';
import { CliError } from './errors.js';
import { chooseProviders, loadProviderChooser } from './providers.js';

// @conclave/providers is an optional dependency (ADR 0029): without it every run is offline, and
// what needs a real model is a usage error with a fix, never a crash or a silent offline run.
describe('chooseProviders without @conclave/providers', () => {
  it('runs offline when no key is set and no provider is asked for', () => {
    expect(chooseProviders({}, {}).offline).toBe(true);
    expect(chooseProviders({ provider: 'offline' }, { ANTHROPIC_API_KEY: 'k' }).offline).toBe(true);
  });

  it('refuses a key in the environment or a real provider with exit 2 and the fix', () => {
    for (const [flags, env] of [
      [{}, { OPENAI_API_KEY: 'k' }],
      [{ provider: 'anthropic' }, { ANTHROPIC_API_KEY: 'k' }],
      [{ model: 'openai-compatible:http://localhost:11434/v1#llama3.2' }, {}],
    ] as const) {
      const error = (() => {
        try {
          chooseProviders(flags, env);
        } catch (thrown) {
          return thrown;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(2);
      expect((error as CliError).message).toContain('this install of conclave has no model providers');
      expect((error as CliError).fix).toContain('reinstall without --omit=optional');
    }
  });

  it('names what is wrong with a --model that is not provider:model: no model after the colon is not "no provider"', () => {
    const messageFor = (model: string): string => {
      try {
        chooseProviders({ model }, {});
      } catch (thrown) {
        expect(thrown).toBeInstanceOf(CliError);
        expect((thrown as CliError).exitCode).toBe(2);
        return (thrown as CliError).message;
      }
      throw new Error(`--model ${model} was accepted`);
    };
    expect(messageFor('anthropic:')).toBe('--model anthropic: is not provider:model (no model after the colon)');
    expect(messageFor('llama3')).toBe('--model llama3 is not provider:model (no provider before a colon)');
    expect(messageFor('mystery:m')).toBe('--model mystery:m names no provider conclave knows');
  });

  it('serves the same choices through adaptersFromEnv when it is installed', () => {
    const choice = chooseProviders({}, { OPENAI_API_KEY: 'k' }, adaptersFromEnv);
    expect(choice).toMatchObject({ offline: false, provider: 'env' });
    expect(chooseProviders({ provider: 'anthropic' }, { ANTHROPIC_API_KEY: 'k' }, adaptersFromEnv).model).toBe(
      'anthropic:claude-sonnet-5-5',
    );
  });
});

describe('loadProviderChooser', () => {
  it('loads @conclave/providers when a run may reach a real model, and serves it', async () => {
    const env = { ANTHROPIC_API_KEY: 'k' };
    const choose = await loadProviderChooser({ provider: 'anthropic' }, env);
    expect(choose({ provider: 'anthropic' }, env)).toMatchObject({ offline: false, model: 'anthropic:claude-sonnet-5-5' });
  });

  it('runs offline without it when nothing asks for a model', async () => {
    expect((await loadProviderChooser({}, {}))({}, {}).offline).toBe(true);
    expect(
      (await loadProviderChooser({ provider: 'offline' }, { OPENAI_API_KEY: 'k' }))({ provider: 'offline' }, { OPENAI_API_KEY: 'k' })
        .offline,
    ).toBe(true);
  });
});
