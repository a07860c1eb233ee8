import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { freePort } from './restate-server.js';
import { sigkill } from './sigkill.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = join(here, '..', '..');

/**
 * Bundles worker.ts with the workspace's TypeScript sources into one file once, so a worker
 * restarts in a few hundred milliseconds instead of paying for a TypeScript loader each time.
 * Third-party packages stay external and resolve from node_modules as the package itself would.
 */
async function bundleWorker(): Promise<string> {
  const outfile = join(packageRoot, 'node_modules', '.cache', 'conclave-restate', `worker-${process.pid}-${Date.now()}.mjs`);
  await mkdir(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [join(here, 'worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['conclave-source'],
    logLevel: 'error',
    plugins: [
      {
        name: 'third-party-external',
        setup(plugin) {
          plugin.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@conclave/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return outfile;
}

/** A worker child process serving the workflows on a fixed port, which a test can SIGKILL and restart. */
export interface WorkerProcess {
  readonly url: string;
  /** SIGKILLs the worker: no cleanup, no flush, as when its machine dies. */
  kill(): Promise<void>;
  /** Starts a fresh worker process on the same port. */
  start(): Promise<void>;
  /** Kills the worker and deletes its bundle. */
  close(): Promise<void>;
}

/** Bundles the worker and starts it on a free port, its members' models on the fake provider at `fakeBaseURL`. */
export async function startWorker(fakeBaseURL: string): Promise<WorkerProcess> {
  const bundle = await bundleWorker();
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const started = spawn(process.execPath, [bundle], {
      env: {
        PATH: process.env.PATH ?? '',
        ...(process.env.CONCLAVE_WORKER_LOG ? { CONCLAVE_WORKER_LOG: '1' } : {}),
        CONCLAVE_WORKER_PORT: String(port),
        CONCLAVE_FAKE_BASE_URL: fakeBaseURL,
        // The bundle lives elsewhere, so the agent script is named; the run keys go to a temp folder, not the user's.
        CONCLAVE_TASK_AGENT: join(packageRoot, '..', 'taskloop', 'src', 'loop', 'test-fixtures', 'task-agent.js'),
        CONCLAVE_STATE_DIR: process.env.CONCLAVE_STATE_DIR ?? join(tmpdir(), 'conclave-test-state'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = started;
    await new Promise<void>((resolve, reject) => {
      started.once('exit', (code) => reject(new Error(`the worker exited with code ${code} before it was ready`)));
      started.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve();
      });
    });
  };
  const kill = (): Promise<void> => sigkill(child);
  await start();
  const close = async (): Promise<void> => {
    await kill();
    await rm(bundle, { force: true });
  };
  return { url: `http://127.0.0.1:${port}`, kill, start, close };
}
