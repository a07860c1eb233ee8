#!/usr/bin/env node
// The published entry point runs the built CLI. In this repository, run it from source with
// `node --conditions=conclave-source --import tsx packages/cli/src/bin.ts` (as `npm run demo` does).
import '../dist/bin.js';
