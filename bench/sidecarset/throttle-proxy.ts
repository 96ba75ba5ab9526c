// A TCP proxy on 127.0.0.1 in front of the node's loopback registry that sends the registry's answers at a fixed
// rate, shared by every connection (a slow link, not a per-connection cap), so a pull takes size / rate whoever pulls.
// Requests go through unthrottled. Bounded: it closes itself after `lifetimeMs`, and `close()` ends every connection.
import { createConnection, createServer, type Socket } from 'node:net';

export interface ThrottleProxy {
  /** `127.0.0.1:<port>`, the prefix of image references pulled through it. */
  host: string;
  /** Bytes sent to clients so far. */
  sent(): number;
  setRate(bytesPerSec: number): void;
  close(): Promise<void>;
}

export async function startThrottleProxy(o: { upstream: string; bytesPerSec: number; lifetimeMs: number }): Promise<ThrottleProxy> {
  const [upHost, upPort] = [o.upstream.slice(0, o.upstream.lastIndexOf(':')), Number(o.upstream.slice(o.upstream.lastIndexOf(':') + 1))];
  let rate = o.bytesPerSec;
  let sent = 0;
  /** When the shared link is free again (ms): each chunk books size / rate of it. */
  let linkFreeAt = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const up = createConnection({ host: upHost, port: upPort });
    sockets.add(client).add(up);
    const drop = () => { client.destroy(); up.destroy(); sockets.delete(client); sockets.delete(up); };
    client.on('error', drop).on('close', drop);
    up.on('error', drop).on('close', drop);
    client.pipe(up);
    // Chunks leave in order; the end follows the last one.
    let last = Promise.resolve();
    up.on('data', (chunk: Buffer) => {
      const now = Date.now();
      linkFreeAt = Math.max(now, linkFreeAt) + (chunk.length / rate) * 1000;
      const at = linkFreeAt;
      up.pause();
      last = last.then(() => new Promise<void>((resolve) => setTimeout(() => {
        sent += chunk.length;
        if (client.destroyed) return resolve();
        client.write(chunk, () => { up.resume(); resolve(); });
      }, at - Date.now())));
    });
    up.on('end', () => { void last.then(() => client.end()); });
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const port = (server.address() as { port: number }).port;
  const close = () => new Promise<void>((resolve) => {
    clearTimeout(timer);
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  });
  const timer = setTimeout(() => void close(), o.lifetimeMs);
  timer.unref();
  return {
    host: `127.0.0.1:${port}`, sent: () => sent, close,
    setRate: (bytesPerSec) => { rate = bytesPerSec; },
  };
}
