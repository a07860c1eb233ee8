import { conclaveClient, type ConclaveClient } from '../client.js';
import { startRestateServer, type RestateServer } from './restate-server.js';
import { startWorker, type WorkerProcess } from './worker-process.js';

/** A restate-server, one worker process registered with it, and a client of its ingress. */
export interface RestateCluster {
  readonly server: RestateServer;
  readonly worker: WorkerProcess;
  readonly client: ConclaveClient;
  /** Kills the worker and stops the server. */
  close(): Promise<void>;
}

/** Starts a restate-server and a worker (its members' models on the fake provider at `fakeBaseURL`), and registers the worker. */
export async function startRestateCluster(fakeBaseURL: string): Promise<RestateCluster> {
  const server = await startRestateServer();
  const worker = await startWorker(fakeBaseURL);
  await server.register(worker.url);
  const client = conclaveClient({ ingressUrl: server.ingressUrl, adminUrl: server.adminUrl });
  return {
    server,
    worker,
    client,
    close: async () => {
      await worker.close();
      await server.close();
    },
  };
}
