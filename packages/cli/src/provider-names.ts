/**
 * The providers `--provider` accepts. Apart from providers.ts, which loads the provider SDKs,
 * so building the command line's help costs no SDK load.
 */
export const PROVIDERS = ['offline', 'anthropic', 'openai', 'openai-compatible'] as const;
export type CliProvider = (typeof PROVIDERS)[number];
