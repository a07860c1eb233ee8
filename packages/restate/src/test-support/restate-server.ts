import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sigkill } from './sigkill.js';

/** The restate-server binary that `@restatedev/restate-server` installs for this platform; throws one line saying what to install when it is missing. */
export function restateServerBinary(platform: string = process.platform, arch: string = process.arch): string {
  const platformPackage = `@restatedev/restate-server-${platform}-${arch}`;
  try {
    const binary = join(dirname(createRequire(import.meta.url).resolve(`${platformPackage}/package.json`)), 'bin', 'restate-server');
    if (existsSync(binary)) return binary;
  } catch {
    // Falls through to the one-line instruction below.
  }
  throw new Error(
    `restate-server is missing: run \`npm install\` at the repository root (it ships in ${platformPackage}, installed by the devDependency @restatedev/restate-server)`,
  );
}

/** A free loopback TCP port (the OS picks it; the probe closes before the caller binds). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A running restate-server on loopback ports, its data in its own base dir. */
export interface RestateServer {
  readonly ingressUrl: string;
  readonly adminUrl: string;
  readonly baseDir: string;
  /** SIGKILLs the server: nothing is flushed, as when its machine dies. */
  kill(): Promise<void>;
  /** Starts the server again on the same ports and base dir. */
  restart(): Promise<void>;
  /** Registers a service endpoint (`http://127.0.0.1:<port>`) through the admin API. */
  register(endpointUrl: string): Promise<void>;
  /** Stops the server and deletes its base dir. */
  close(): Promise<void>;
}

async function waitUntil(ready: () => Promise<boolean>, what: string, process: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) throw new Error(`${what}: the process exited with code ${process.exitCode}`);
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not ready after ${timeoutMs} ms`);
}

const ok = async (url: string): Promise<boolean> => (await fetch(url)).ok;

/** Starts restate-server on three free loopback ports (ingress, admin, node-to-node) in a fresh temporary base dir. */
export async function startRestateServer(): Promise<RestateServer> {
  const binary = restateServerBinary();
  const baseDir = await mkdtemp(join(tmpdir(), 'conclave-restate-'));
  const [ingress, admin, fabric] = [await freePort(), await freePort(), await freePort()];
  const ingressUrl = `http://127.0.0.1:${ingress}`;
  const adminUrl = `http://127.0.0.1:${admin}`;
  const env = {
    PATH: process.env.PATH ?? '',
    RESTATE_LISTEN_MODE: 'tcp',
    RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
    RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
    RESTATE_BIND_ADDRESS: `127.0.0.1:${fabric}`,
    RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${fabric}`,
    RESTATE_DISABLE_TELEMETRY: 'true',
    RESTATE_DEFAULT_NUM_PARTITIONS: '4',
    RESTATE_LOG_FILTER: process.env.CONCLAVE_RESTATE_LOG ?? 'error',
  };
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const started = spawn(binary, ['--base-dir', baseDir, '--node-name', 'conclave-test', '--no-logo'], {
      env,
      stdio: ['ignore', 'ignore', process.env.CONCLAVE_RESTATE_LOG ? 'inherit' : 'ignore'],
    });
    child = started;
    await waitUntil(async () => (await ok(`${adminUrl}/health`)) && (await ok(`${ingressUrl}/restate/health`)), 'restate-server', started);
  };
  const kill = (): Promise<void> => sigkill(child);
  await start();
  return {
    ingressUrl,
    adminUrl,
    baseDir,
    kill,
    restart: start,
    async register(endpointUrl) {
      const response = await fetch(`${adminUrl}/deployments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uri: endpointUrl, force: true }),
      });
      if (!response.ok) throw new Error(`registering ${endpointUrl} failed: HTTP ${response.status} ${await response.text()}`);
    },
    async close() {
      await kill();
      await rm(baseDir, { recursive: true, force: true });
    },
  };
}
