/** The environment variables conclave reads to reach model providers. */
export interface ProviderEnvironment {
  readonly ANTHROPIC_API_KEY?: string | undefined;
  readonly ANTHROPIC_BASE_URL?: string | undefined;
  readonly OPENAI_API_KEY?: string | undefined;
  readonly OPENAI_BASE_URL?: string | undefined;
}

/** The process environment where there is one (Node, Bun, Deno with --allow-env), else empty. */
export function processEnvironment(): ProviderEnvironment {
  const process = (globalThis as { process?: { env?: ProviderEnvironment } }).process;
  return process?.env ?? {};
}

/** A variable's value, treating an empty or blank one as unset. */
export function setting(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}
