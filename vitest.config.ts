import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.js';

export default defineConfig({
  // Tests read each package's TypeScript source through the "conclave-source" export condition,
  // so `npm test` needs no build step.
  resolve: { conditions: ['conclave-source'] },
  ssr: { resolve: { conditions: ['conclave-source'] } },
  test: {
    projects,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
