/**
 * The dependency rule: which workspace packages each package may import (an arrow means "may
 * import"). Arrows point down the layers only, so no package can reach one that depends on it.
 * docs/architecture.md draws the same graph; a test holds the two to each other.
 */
export const DEPENDENCY_RULE: Readonly<Record<string, readonly string[]>> = {
  scoring: [],
  core: [],
  verifier: ['scoring'],
  council: ['core', 'scoring'],
  meeting: ['core', 'scoring'],
  guardian: ['core'],
  anthropic: ['core'],
  openai: ['core'],
  'ai-sdk': ['core'],
  providers: ['core', 'council', 'anthropic', 'openai'],
  taskloop: ['core', 'scoring', 'council', 'verifier', 'guardian'],
  report: ['core', 'council', 'verifier', 'meeting', 'taskloop'],
  testing: ['core', 'scoring', 'council', 'verifier'],
  cli: ['core', 'scoring', 'council', 'verifier', 'meeting', 'taskloop', 'report', 'providers'],
};

/**
 * Packages that run anywhere (browsers, edge runtimes, Bun, Deno): no Node built-in in their
 * shipped source, except under the folders named (a Node-only subpath export).
 */
export const PURE_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  scoring: [],
  core: [],
  verifier: [],
  council: [],
  meeting: ['src/node/'],
  guardian: [],
  report: [],
};
