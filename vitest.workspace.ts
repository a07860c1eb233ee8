import type { TestProjectConfiguration } from 'vitest/config';

/** One test project per package; the root vitest.config.ts imports this list. */
export const projects: TestProjectConfiguration[] = ['core', 'scoring', 'council', 'testing'].map(
  (name) => ({
    extends: true,
    test: {
      name,
      root: `packages/${name}`,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    },
  }),
);
