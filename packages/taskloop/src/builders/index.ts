// @conclave/taskloop/builders: build outside the loop, with the same guard and prompt the loop uses.
// The builder contract and the two builders are on the package's main entry.
export type { SafeBuildOptions } from './safe-build.js';
export { safeBuild } from './safe-build.js';
export { renderBuildPrompt } from './build-prompt.js';
export type { AgentSdkQuery } from './claude-agent-sdk-builder.js';
