/** Providers a board may name without further configuration. */
export const DEFAULT_PROVIDERS = ['offline', 'anthropic', 'openai', 'openai-compatible'] as const;
