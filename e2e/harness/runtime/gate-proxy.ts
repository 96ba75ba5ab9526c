// A TCP proxy in front of a registry whose gate a test opens: while closed it accepts connections and holds
// them (bytes buffered, nothing forwarded), so a pull through it stays in flight for exactly as long as the
// test wants, with no timing guesses. Opening forwards the held connections and every later one.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface GateProxy {
  /** `127.0.0.1:<port>`: use it as the registry host of image references. */
  host: string;
  /** Connections waiting at the closed gate right now (a client that hung up no longer counts). */
  held(): number;
  /** Connections accepted so far. */
  accepted(): number;
  open(): void;
  /** Holds new connections again; connections already forwarded are left alone. */
  shut(): void;
  close(): Promise<void>;
}

export async function startGateProxy(upstream: string): Promise<GateProxy> {
  const [upHost, upPort] = [upstream.slice(0, upstream.lastIndexOf(':')), Number(upstream.slice(upstream.lastIndexOf(':') + 1))];
  let isOpen = false;
  let accepted = 0;
  /** Held connections; `release` forwards what the client sent so far and pipes the rest. */
  const waiting = new Set<{ release: () => void }>();
  const sockets = new Set<Socket>();

  const forward = (client: Socket, buffered: Buffer[]) => {
    const up = connect(upPort, upHost);
    sockets.add(up);
    up.on('close', () => { sockets.delete(up); client.destroy(); });
    up.on('error', () => client.destroy());
    client.on('close', () => up.destroy());
    for (const b of buffered) up.write(b);
    client.pipe(up);
    up.pipe(client);
  };

  const server: Server = createServer((client) => {
    accepted++;
    sockets.add(client);
    client.on('error', () => undefined);
    client.on('close', () => sockets.delete(client));
    if (isOpen) return forward(client, []);
    const buffered: Buffer[] = [];
    const onData = (b: Buffer) => buffered.push(b);
    const entry = { release: () => { client.off('data', onData); forward(client, buffered); } };
    client.on('data', onData);
    client.on('close', () => waiting.delete(entry));
    waiting.add(entry);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    host: `127.0.0.1:${port}`,
    held: () => waiting.size,
    accepted: () => accepted,
    open() {
      isOpen = true;
      for (const e of [...waiting]) {
        waiting.delete(e);
        e.release();
      }
    },
    shut() { isOpen = false; },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
