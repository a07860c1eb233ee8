import type { TestProjectConfiguration } from 'vitest/config';

const packages = [
  'core',
  'scoring',
  'council',
  'verifier',
  'testing',
  'anthropic',
  'openai',
  'providers',
  'meeting',
  'guardian',
  'taskloop',
  'ai-sdk',
  'report',
  'restate',
  'cli',
];

/** One test project per package, plus the examples a new user runs; the root vitest.config.ts imports this list. */
export const projects: TestProjectConfiguration[] = [
  ...packages.map((name) => ({
    extends: true as const,
    // The cli's tests also run the real binary over dist/, so that project builds first.
    test: {
      name,
      root: `packages/${name}`,
      include: ['src/**/*.test.ts'],
      ...(name === 'cli' ? { globalSetup: ['../../packaging/build-packages.ts'] } : {}),
    },
  })),
  // Rules over every package at once: the dependency rule, no import cycles.
  { extends: true as const, test: { name: 'architecture', root: 'architecture', include: ['**/*.test.ts'] } },
  // What npm users get: every package built and packed once, its tarball checked (file list,
  // publint, attw), installed into a fresh project, type-checked and its examples run.
  {
    extends: true as const,
    test: {
      name: 'packaging',
      root: 'packaging',
      include: ['**/*.test.ts'],
      globalSetup: ['global-setup.ts'],
      testTimeout: 120_000,
      hookTimeout: 240_000,
    },
  },
  { extends: true as const, test: { name: 'examples', root: 'examples', include: ['**/*.test.ts'], testTimeout: 60_000 } },
  // The fault campaign's own checks: a few hundred runs, not the campaign (`npm run fuzz`).
  { extends: true as const, test: { name: 'fuzz', root: 'bench/fuzz', include: ['**/*.test.ts'], testTimeout: 120_000 } },
  // The quality benchmark's exact recall over track records, against simulation (`npm run bench -- quality`).
  { extends: true as const, test: { name: 'quality', root: 'bench/quality', include: ['**/*.test.ts'] } },
  // The committed API report against every package entry's exports (ADR 0039): one compiler pass.
  { extends: true as const, test: { name: 'api-report', root: 'scripts', include: ['**/*.test.ts'], testTimeout: 180_000 } },
  // The kill campaign's own checks: two trials and the detectors, not the campaign (`npm run chaos`).
  { extends: true as const, test: { name: 'chaos', root: 'bench/chaos', include: ['**/*.test.ts'], testTimeout: 60_000 } },
];
