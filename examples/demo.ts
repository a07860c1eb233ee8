/**
 * The main job on the offline default is now the CLI's `conclave demo` (packages/cli); this file
 * is kept as a shortcut to it. Usage: node --conditions=conclave-source --import tsx examples/demo.ts [board.yaml] [question] [--out report.html]
 */
import { main, processIo } from '@conclave/cli';

process.exitCode = await main(['demo', ...process.argv.slice(2)], processIo());
