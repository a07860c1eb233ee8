export { main } from './main.js';
export type { CliIo } from './io.js';
export { processIo } from './io.js';
export type { ExitCode } from './exit-codes.js';
export { EXIT } from './exit-codes.js';
export type { ProviderChoice, ProviderFlags } from './providers.js';
export { chooseProviders, DEFAULT_MODELS, PROVIDERS } from './providers.js';
