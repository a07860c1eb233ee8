import { parseModelRef, type ModelAdapter } from '@conclave/core';
import { createOfflineAdapter, type AdapterSource } from '@conclave/council';
import { createOfflineMeetingMember, type MeetingAdapters } from '@conclave/meeting';
import type { AdaptersFromEnvOptions, ProviderAdapters, ProviderEnvironment } from '@conclave/providers';
import { CliError } from './errors.js';

import { PROVIDERS, type CliProvider } from './provider-names.js';

export { PROVIDERS, type CliProvider } from './provider-names.js';

/** `chooseProviders`, handed in by `main` for the commands that call a model (loading it loads the provider SDKs). */
export type ProviderChooser = (flags: ProviderFlags, env: Readonly<Record<string, string | undefined>>) => ProviderChoice;

/** The model a provider gets when `--provider` is given without `--model`. */
export const DEFAULT_MODELS: Readonly<Record<'anthropic' | 'openai', string>> = { anthropic: 'claude-sonnet-5-5', openai: 'gpt-5-mini' };

const KEYS = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' } as const;

/** Which models a command talks to, decided once from `--provider`, `--model` and the environment. */
export interface ProviderChoice {
  /** True when every model call goes to the offline adapters (no key, no network). */
  readonly offline: boolean;
  /** `offline`, `env` (each member's own model, keys from the environment) or the forced provider. */
  readonly provider: 'offline' | 'env' | Exclude<CliProvider, 'offline'>;
  /** The one model every member uses, when `--provider`/`--model` forced one. */
  readonly model?: string;
  /** One line for humans: what runs the members. */
  readonly label: string;
  /** For the DebateEngine. */
  readonly council: AdapterSource;
  /** For runMeeting. */
  readonly meeting: MeetingAdapters;
  /** A model for the task loop's guardian; none offline. */
  readonly guardian?: { readonly ref: string; readonly adapter: ModelAdapter };
}

/** The flags that pick the models. */
export interface ProviderFlags {
  readonly provider?: string;
  readonly model?: string;
}

/**
 * `adaptersFromEnv` of @conclave/providers, which brings both provider SDKs. It is an optional
 * dependency of the cli (ADR 0029): an install without it (`npm i -g @conclave/cli
 * --omit=optional`) runs everything offline and refuses, with a fix, what needs a model.
 */
export type AdaptersFromEnv = (options?: AdaptersFromEnvOptions) => ProviderAdapters;

/** Whether the environment holds a provider's key (a blank value is no key). */
const hasKey = (env: Readonly<Record<string, string | undefined>>, provider: 'anthropic' | 'openai'): boolean =>
  (env[KEYS[provider]] ?? '').trim() !== '';

/** The providers module, or a usage error naming why it is needed and how to get it. */
function installed(adaptersFromEnv: AdaptersFromEnv | undefined, needed: string): AdaptersFromEnv {
  if (adaptersFromEnv !== undefined) return adaptersFromEnv;
  throw new CliError(
    `${needed}, but this install of conclave has no model providers (@conclave/providers, an optional dependency, was left out)`,
    [],
    undefined,
    'reinstall without --omit=optional (npm i -g @conclave/cli), or run offline: unset the key, or pass --provider offline',
  );
}

/**
 * `chooseProviders`, with @conclave/providers (and so both provider SDKs) loaded only when these
 * flags and this environment may reach a real model: an offline run starts without them, and an
 * install that left them out still runs everything offline.
 */
export async function loadProviderChooser(
  flags: ProviderFlags,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ProviderChooser> {
  const mayCallModels =
    flags.provider === undefined
      ? flags.model !== undefined || hasKey(env, 'anthropic') || hasKey(env, 'openai')
      : flags.provider !== 'offline';
  const providers = !mayCallModels
    ? undefined
    : await import('@conclave/providers').catch((error: unknown) => {
        // Only the providers package itself may be missing; a broken install below it is an error.
        if (
          (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
          String((error as Error).message).includes("'@conclave/providers'")
        )
          return undefined;
        throw error;
      });
  return (chosenFlags, chosenEnv) => chooseProviders(chosenFlags, chosenEnv, providers?.adaptersFromEnv);
}

/**
 * Offline unless told otherwise: with no `--provider`, no `--model` and no key in the environment,
 * every member runs on the offline adapters. With a key but no flags, members use the models their
 * board or brief names. `--provider`/`--model` put every member on one model; a provider without
 * its key is a usage error (exit 2) that names the variable. Real models are served by
 * `adaptersFromEnv` (from @conclave/providers); without it, only offline runs are possible.
 */
export function chooseProviders(
  flags: ProviderFlags,
  env: Readonly<Record<string, string | undefined>>,
  adaptersFromEnv?: AdaptersFromEnv,
): ProviderChoice {
  const providerEnv = env as ProviderEnvironment;
  const offline = offlineChoice();
  if (flags.model !== undefined && flags.model.trim() === '') {
    throw new CliError(
      '--model is empty',
      [],
      undefined,
      `name a model, e.g. --model openai:${DEFAULT_MODELS.openai} or --model anthropic:${DEFAULT_MODELS.anthropic}`,
    );
  }
  const fromModel = flags.model === undefined ? undefined : parseModelRef(flags.model);
  const modelProvider =
    fromModel !== undefined && (PROVIDERS as readonly string[]).includes(fromModel.provider)
      ? (fromModel.provider as CliProvider)
      : undefined;
  if (flags.provider !== undefined && !(PROVIDERS as readonly string[]).includes(flags.provider)) {
    throw new CliError(`unknown provider "${flags.provider}"`, [], undefined, `use one of ${PROVIDERS.join(', ')}`);
  }
  const flagProvider = flags.provider as CliProvider | undefined;
  if (flagProvider !== undefined && modelProvider !== undefined && flagProvider !== modelProvider) {
    throw new CliError(
      `--provider ${flagProvider} and --model ${flags.model ?? ''} name different providers`,
      [],
      undefined,
      `drop one of them, or write --model ${flagProvider}:<model>`,
    );
  }
  const provider = flagProvider ?? modelProvider;

  if (provider === undefined && flags.model === undefined) {
    const keyed = (['anthropic', 'openai'] as const).find((name) => hasKey(env, name));
    if (keyed === undefined) return offline;
    const fromEnv = installed(adaptersFromEnv, `${KEYS[keyed]} is set`);
    const providers = fromEnv({ env: providerEnv });
    const first = providers.configured[0] as 'anthropic' | 'openai';
    const meetingProviders = fromEnv({ env: providerEnv, offline: createOfflineMeetingMember() });
    const guardianRef = `${first}:${DEFAULT_MODELS[first]}`;
    const guardian = providers.resolve(guardianRef);
    return {
      offline: false,
      provider: 'env',
      label: `models as each member names them (keys set: ${providers.configured.join(', ')}; offline: members stay offline)`,
      council: providers.source,
      meeting: (ref) => {
        const resolved = meetingProviders.resolve(ref);
        return resolved.ok ? resolved.adapter : undefined;
      },
      ...(guardian.ok ? { guardian: { ref: guardianRef, adapter: guardian.adapter } } : {}),
    };
  }
  if (provider === undefined) {
    throw new CliError(
      modelProblem(flags.model ?? '', fromModel !== undefined),
      [],
      undefined,
      `write provider:model (e.g. anthropic:${DEFAULT_MODELS.anthropic}) or add --provider`,
    );
  }
  if (provider === 'offline') return offline;

  if (provider === 'anthropic' || provider === 'openai') {
    if (!hasKey(env, provider)) {
      throw new CliError(
        `--provider ${provider} needs ${KEYS[provider]}, which is not set`,
        [],
        undefined,
        `export ${KEYS[provider]}=<your key>, or drop --provider to run on the offline adapters`,
      );
    }
  }
  const model =
    fromModel !== undefined ? fromModel.model : (flags.model ?? (provider === 'openai-compatible' ? undefined : DEFAULT_MODELS[provider]));
  if (model === undefined) {
    throw new CliError(
      '--provider openai-compatible needs --model <baseURL>#<model>',
      [],
      undefined,
      '--model http://localhost:11434/v1#llama3.2 (Ollama), or another OpenAI-compatible server',
    );
  }
  const ref = `${provider}:${model}`;
  const resolved = installed(adaptersFromEnv, `${ref} needs a model provider`)({ env: providerEnv }).resolve(ref);
  if (!resolved.ok)
    throw new CliError(
      resolved.error,
      [],
      undefined,
      'write --model provider:model: anthropic:<model>, openai:<model>, or openai-compatible:<base URL>#<model>',
    );
  const adapter = resolved.adapter;
  return {
    offline: false,
    provider,
    model: ref,
    label: `every member on ${ref}`,
    council: () => adapter,
    meeting: () => adapter,
    guardian: { ref, adapter },
  };
}

/** What is wrong with a --model that names no provider conclave serves, said as the user wrote it. */
function modelProblem(model: string, parsed: boolean): string {
  if (parsed) return `--model ${model} names no provider conclave knows`;
  const colon = model.indexOf(':');
  return colon > 0 && model.slice(colon + 1).trim() === ''
    ? `--model ${model} is not provider:model (no model after the colon)`
    : `--model ${model} is not provider:model (no provider before a colon)`;
}

function offlineChoice(): ProviderChoice {
  const council = createOfflineAdapter();
  return {
    offline: true,
    provider: 'offline',
    label: 'OFFLINE adapters (deterministic members; no model, no key, no network)',
    council: () => council,
    meeting: () => createOfflineMeetingMember(),
  };
}
