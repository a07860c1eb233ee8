import { createCommandBuilder } from '@conclave/taskloop';
import * as restate from '@restatedev/restate-sdk';
import { debateWorkflow } from '../debate-workflow.js';
import { meetingWorkflow } from '../meeting-workflow.js';
import { taskWorkflow } from '../task-workflow.js';
import { fakeProviderAdapters } from './fake-provider.js';

// A worker process: serves the debate, meet and task workflows on CONCLAVE_WORKER_PORT, its
// members' models on the fake provider at CONCLAVE_FAKE_BASE_URL, its one builder (`scripted`)
// the task loop's stand-in agent at CONCLAVE_TASK_AGENT. Tests and the bench SIGKILL it.
const port = Number(process.env.CONCLAVE_WORKER_PORT);
const baseURL = process.env.CONCLAVE_FAKE_BASE_URL ?? '';
const adapters = fakeProviderAdapters(baseURL);
// The task loop's stand-in agent, flaky (each task's first build broken), also logging each build to ../calls.log, outside the work tree.
const builders = {
  scripted: createCommandBuilder({
    command: `${process.execPath} ${process.env.CONCLAVE_TASK_AGENT ?? ''} flaky ../calls.log`,
    promptVia: 'stdin',
  }),
};
await restate.serve({
  services: [debateWorkflow({ adapters }), meetingWorkflow({ adapters }), taskWorkflow({ builders })],
  port,
  ...(process.env.CONCLAVE_WORKER_LOG ? {} : { logger: () => undefined }),
});
process.stdout.write('ready\n');
