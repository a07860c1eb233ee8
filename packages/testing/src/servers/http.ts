import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running local HTTP server for tests. */
export interface LocalHttpServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** Stops accepting connections, destroys the open ones and resolves once the server is closed. */
  close(): Promise<void>;
}

/**
 * Starts a `node:http` server on 127.0.0.1 and an OS-chosen port. The handler's rejections are
 * answered with a 500 (or a destroyed socket once headers are out), never left unhandled.
 */
export async function startHttpServer(
  handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<LocalHttpServer> {
  const server: Server = createServer((request, response) => {
    handler(request, response).catch((thrown: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response.writeHead(500, { 'content-type': 'text/plain' }).end(`test server handler failed: ${String(thrown)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Reads a request's whole body as UTF-8 text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The request's headers as a plain object with lower-case names; repeated headers are joined with ", ". */
export function plainHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * Resolves after `ms` or when the response closes (the client went away), whichever is first;
 * the timer is cleared either way. Resolves `false` when the client went away.
 */
export function delayUnlessClosed(ms: number, response: ServerResponse): Promise<boolean> {
  if (response.destroyed || response.writableEnded) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      response.off('close', onClose);
      resolve(true);
    }, ms);
    response.once('close', onClose);
  });
}

/** Like `delayUnlessClosed`, but waits for a promise instead of a timer. */
export function waitUnlessClosed(until: PromiseLike<unknown>, response: ServerResponse): Promise<boolean> {
  if (response.destroyed || response.writableEnded) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = (): void => resolve(false);
    response.once('close', onClose);
    Promise.resolve(until).then(
      () => {
        response.off('close', onClose);
        resolve(!response.destroyed);
      },
      () => {
        response.off('close', onClose);
        resolve(!response.destroyed);
      },
    );
  });
}

/** Sends a recorded response as it is: its status, its headers, and its body (JSON, or a string as it is). */
export function sendWire(
  response: ServerResponse,
  wire: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: unknown },
): void {
  if (response.destroyed || response.writableEnded) return;
  const text = typeof wire.body === 'string' ? wire.body : JSON.stringify(wire.body);
  response.writeHead(wire.status, {
    'content-type': 'application/json',
    ...wire.headers,
    'content-length': String(Buffer.byteLength(text)),
  });
  response.end(text);
}
