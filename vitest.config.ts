import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.js';

export default defineConfig({
  // Tests read each package's TypeScript source through the "source" export condition,
  // so `npm test` needs no build step.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    projects,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
