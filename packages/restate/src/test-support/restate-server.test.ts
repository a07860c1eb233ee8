import { describe, expect, it } from 'vitest';
import { restateServerBinary } from './restate-server.js';

describe('the restate-server the tests start', () => {
  it('is found in node_modules here, and a missing one fails with one line saying what to install', () => {
    expect(restateServerBinary()).toMatch(/restate-server$/);
    expect(() => restateServerBinary('plan9', 'mips')).toThrow(
      /^restate-server is missing: run `npm install` at the repository root \(it ships in @restatedev\/restate-server-plan9-mips, [^\n]*\)$/,
    );
  });
});
