export type { AdaptersFromEnvOptions, ProviderAdapters, ProviderName } from './adapters-from-env.js';
export { adaptersFromEnv } from './adapters-from-env.js';
export type { ProviderEnvironment } from './provider-env.js';
export { processEnvironment } from './provider-env.js';
