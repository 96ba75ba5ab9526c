// Starting and stopping a plain node:http server, for the small single-purpose listeners (the daemon's health port,
// the optional metrics-only port).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** The bound port (the one asked for, or the kernel's choice for 0). */
  port: number;
  /** Stops accepting and drops kept-alive connections, so the close never waits on an idle scraper. */
  close(): Promise<void>;
}

/** Resolves once `server` listens on host:port; rejects with the listen error (e.g. EADDRINUSE). */
export function listen(server: Server, port: number, host: string): Promise<Listening> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }),
      });
    });
  });
}
