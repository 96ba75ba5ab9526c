// Raw TCP clients for the limits tests over 127.0.0.1 (server-limits, reply-limits, source-limits): a client may
// connect from another loopback address (127.0.0.2 …), which the server sees as another source.
import { connect as tcpConnect, type AddressInfo, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { WEBHOOK_SERVER_DEFAULTS, type WebhookServerLimits } from '../shared/config.js';
import { silentLogger } from '../shared/log.js';
import type { ByteBudget } from './admission/byte-budget.js';
import type { WebhookRoute } from './admission/route.js';
import { buildApp, serverBudget } from './app.js';
import { createMetrics } from './metrics.js';
import { review } from './test-helpers.js';

export interface Client { socket: Socket; closed: Promise<void>; isClosed: () => boolean; response: () => string }

export function client(port: number, from = '127.0.0.1'): Promise<Client> {
  return new Promise((resolve, reject) => {
    let text = '';
    let closed = false;
    const socket = tcpConnect({ host: '127.0.0.1', port, localAddress: from }, () => resolve({ socket, closed: closedP, isClosed: () => closed, response: () => text }));
    const closedP = new Promise<void>((r) => socket.on('close', () => { closed = true; r(); }));
    socket.on('data', (d: Buffer) => { text += d.toString('latin1'); });
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const post = (path: string, extra: string) => `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${extra}`;

/** One well-formed review of `path`, with its Content-Length. */
export function reviewRequest(path: string, body = JSON.stringify(review())): string {
  return post(path, `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/** Polls `cond` every 10 ms for up to `ms`; returns its last value. */
export async function until(cond: () => boolean, ms = 5000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(10)) if (cond()) return true;
  return cond();
}

/** Sends `request` on a new connection from `from` and resolves with the first complete answer's status (0: none). */
export async function ask(port: number, request: string, from = '127.0.0.1'): Promise<{ status: number; text: string; client: Client }> {
  const c = await client(port, from);
  c.socket.write(request);
  await until(() => c.isClosed() || /\r\n\r\n/.test(c.response()));
  const len = Number(/content-length: (\d+)/i.exec(c.response())?.[1] ?? 0);
  await until(() => c.isClosed() || c.response().length - c.response().indexOf('\r\n\r\n') - 4 >= len);
  return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(c.response())?.[1] ?? 0), text: c.response(), client: c };
}

/** Writes `body` bytes of a `length`-byte body (stalling there) on a new connection from `from`. */
export async function stall(port: number, path: string, length: number, body: number, from = '127.0.0.1'): Promise<Client> {
  const c = await client(port, from);
  await new Promise<void>((resolve) => {
    void c.closed.then(resolve);
    c.socket.write(post(path, `Content-Length: ${length}\r\n\r\n`));
    c.socket.write(Buffer.alloc(body, 'x'), () => resolve());
  });
  return c;
}

export async function serve(routes: WebhookRoute[], limits: Partial<WebhookServerLimits> = {}): Promise<{ app: FastifyInstance; budget: ByteBudget; port: number; limits: WebhookServerLimits }> {
  const l = { ...WEBHOOK_SERVER_DEFAULTS, ...limits };
  const budget = serverBudget(l);
  const app = buildApp({ log: silentLogger(), metrics: createMetrics(), limits: l, bodyBudget: budget, routes });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, budget, port: (app.server.address() as AddressInfo).port, limits: l };
}
