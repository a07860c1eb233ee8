#!/usr/bin/env node
import { main } from './main.js';
import { processIo } from './io.js';
import { interruptExitCode, processStopSignals, stoppedBy } from './interrupt.js';

// The process's signals are handled here, not in `main`, which stays free of process state.
const stops = processStopSignals();
const code = await main(process.argv.slice(2), { ...processIo(), signal: stops.signal });
stops.dispose();
const by = stoppedBy(stops.signal);
// A stopped run never exits with its outcome's code, even from a command that ignores the signal.
process.exitCode = by === undefined ? code : interruptExitCode(by);
// A call the stop left hanging (a socket, a timer) must not keep a stopped process alive: exit
// soon after, if the event loop does not empty first (the timer itself keeps nothing alive).
if (by !== undefined) setTimeout(() => process.exit(), 1_000).unref();
