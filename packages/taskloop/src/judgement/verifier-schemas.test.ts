import { describe, expect, it } from 'vitest';
import {
  alignmentStateSchema,
  bigPictureStateSchema,
  buildPassed,
  buildStateSchema,
  styleStateSchema,
  styleTotal,
  verifierSchemas,
  VERIFIER_KINDS,
} from './verifier-schemas.js';

const build = {
  attempted: true,
  exitCode: 0,
  errors: [],
  warnings: ['w'],
  durationMs: 1200,
  commands: ['npm run build'],
  logSample: 'ok',
  inferred: false,
};
const alignment = { score: 0.8, coverage: [{ criterion: 'adds a flag', met: true, why: 'cli.ts parses --flag' }], constraintIssues: [] };
const bigPicture = {
  score: 0.9,
  supportsParent: null,
  supportsNext: [{ spec: 'next-1', supports: true, why: 'keeps the hook' }],
  risks: [],
};
const style = {
  issues: [
    { rule: 'no-console', count: 3, examples: ['console.log(x)'] },
    { rule: 'naming', count: 2, examples: [] },
  ],
};

describe('verifier schemas', () => {
  it('accept valid states', () => {
    expect(buildStateSchema.safeParse(build).success).toBe(true);
    expect(buildStateSchema.safeParse({ ...build, exitCode: null, attempted: false, inferred: true }).success).toBe(true);
    expect(alignmentStateSchema.safeParse(alignment).success).toBe(true);
    expect(bigPictureStateSchema.safeParse(bigPicture).success).toBe(true);
    expect(bigPictureStateSchema.safeParse({ ...bigPicture, supportsParent: false }).success).toBe(true);
    expect(styleStateSchema.safeParse(style).success).toBe(true);
    expect(styleStateSchema.safeParse({ issues: [] }).success).toBe(true);
  });

  it.each([
    ['build: unknown key', buildStateSchema, { ...build, verdict: 'pass' }],
    ['build: missing inferred', buildStateSchema, { ...build, inferred: undefined }],
    ['build: fractional exit code', buildStateSchema, { ...build, exitCode: 1.5 }],
    ['build: negative duration', buildStateSchema, { ...build, durationMs: -1 }],
    ['build: warnings as a count', buildStateSchema, { ...build, warnings: 5 }],
    ['alignment: score above 1', alignmentStateSchema, { ...alignment, score: 1.2 }],
    ['alignment: score below 0', alignmentStateSchema, { ...alignment, score: -0.1 }],
    ['alignment: coverage without met', alignmentStateSchema, { ...alignment, coverage: [{ criterion: 'x', why: 'y' }] }],
    ['alignment: empty criterion', alignmentStateSchema, { ...alignment, coverage: [{ criterion: '', met: true, why: 'y' }] }],
    ['bigPicture: supportsParent missing', bigPictureStateSchema, { score: 0.5, supportsNext: [], risks: [] }],
    ['bigPicture: supportsParent a string', bigPictureStateSchema, { ...bigPicture, supportsParent: 'yes' }],
    [
      'bigPicture: next entry with extra key',
      bigPictureStateSchema,
      { ...bigPicture, supportsNext: [{ spec: 'n', supports: true, why: '', extra: 1 }] },
    ],
    ['style: negative count', styleStateSchema, { issues: [{ rule: 'r', count: -1, examples: [] }] }],
    ['style: fractional count', styleStateSchema, { issues: [{ rule: 'r', count: 1.5, examples: [] }] }],
    ['style: no examples', styleStateSchema, { issues: [{ rule: 'r', count: 1 }] }],
    ['style: not an object', styleStateSchema, 'clean'],
  ] as const)('reject %s', (_name, schema, value) => {
    expect(schema.safeParse(value).success).toBe(false);
  });

  it('map every kind to its schema', () => {
    expect(Object.keys(verifierSchemas).sort()).toEqual([...VERIFIER_KINDS].sort());
    expect(verifierSchemas.style).toBe(styleStateSchema);
  });

  it('derive the style total and whether the build passed', () => {
    expect(styleTotal(style)).toBe(5);
    expect(styleTotal({ issues: [] })).toBe(0);
    expect(buildPassed(build)).toBe(true);
    expect(buildPassed({ ...build, exitCode: 1 })).toBe(false);
    expect(buildPassed({ ...build, errors: ['e'] })).toBe(false);
    expect(buildPassed({ ...build, attempted: false })).toBe(false);
    expect(buildPassed({ ...build, exitCode: null })).toBe(false);
  });
});
