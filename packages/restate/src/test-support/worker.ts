import * as restate from '@restatedev/restate-sdk';
import { debateWorkflow } from '../debate-workflow.js';
import { meetingWorkflow } from '../meeting-workflow.js';
import { fakeProviderAdapters } from './fake-provider.js';

// A worker process: serves the debate and meet workflows on CONCLAVE_WORKER_PORT, its members'
// models on the fake provider at CONCLAVE_FAKE_BASE_URL. Tests and the bench SIGKILL it.
const port = Number(process.env.CONCLAVE_WORKER_PORT);
const baseURL = process.env.CONCLAVE_FAKE_BASE_URL ?? '';
const adapters = fakeProviderAdapters(baseURL);
await restate.serve({ services: [debateWorkflow({ adapters }), meetingWorkflow({ adapters })], port, ...(process.env.CONCLAVE_WORKER_LOG ? {} : { logger: () => undefined }) });
process.stdout.write('ready\n');
