// Connections per source address (review N-H4). One global maxConnections let 1,000 idle keep-alive connections from
// one pod lock every new client out, the apiserver included. Two rules on accept:
//   1. a source already holding perSource connections gets no more;
//   2. when the server holds max connections, a newcomer from a source holding fewer than the largest source takes the
//      slot of that source's longest-idle connection (no request in progress); with none idle, the newcomer is closed.
// Rule 2 only ever closes a connection that carries no request, as the keep-alive timeout does to every idle one
// (Go's transport sees the close and drops the connection from its pool), and only when the server is full, so it
// never cuts a review in progress; rule 1 is why perSource must stay above the apiserver's own concurrency
// (shared/config.ts maxConnectionsPerSource).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';
import { sourceAddress } from './source-address.js';

export interface ConnectionCaps {
  readonly max: number;
  readonly perSource: number;
}

interface Conn {
  readonly socket: Socket;
  readonly source: string;
  readonly key: string;
  /** Requests in progress (HTTP/1.1 answers one at a time; pipelining may queue more). */
  busy: number;
  /** When the last request ended (or the connection opened): the oldest idle connection is closed first. */
  idleSince: number;
}

export interface ConnectionTracker {
  /** Open connections, from `source` if given. */
  count(source?: string): number;
  /** Connections closed by rule 1 and by rule 2 (evicted idle ones), and newcomers refused because nothing was idle. */
  readonly refused: { perSource: number; evicted: number; full: number };
}

const connKey = (s: Pick<Socket, 'remoteAddress' | 'remotePort'>) => `${s.remoteAddress}|${s.remotePort}`;

/** Applies the caps to `server` (HTTP or HTTPS): Node's own maxConnections becomes a backstop one above `max`. */
export function limitConnections(server: Server, caps: ConnectionCaps, now: () => number = Date.now): ConnectionTracker {
  const bySource = new Map<string, Set<Conn>>();
  const byKey = new Map<string, Conn>();
  let total = 0;
  const refused = { perSource: 0, evicted: 0, full: 0 };
  // Node closes a connection past maxConnections before anyone sees it; one more lets rule 2 see the newcomer.
  server.maxConnections = caps.max + 1;

  const idleVictim = (newcomerCount: number): Conn | undefined => {
    let largest: Set<Conn> | undefined;
    for (const conns of bySource.values()) if (!largest || conns.size > largest.size) largest = conns;
    // Only a source that would still hold more than the newcomer's source after giving one up.
    if (!largest || largest.size <= newcomerCount + 1) return undefined;
    let victim: Conn | undefined;
    for (const c of largest) if (c.busy === 0 && (!victim || c.idleSince < victim.idleSince)) victim = c;
    return victim;
  };

  server.on('connection', (socket: Socket) => {
    const source = sourceAddress(socket);
    const mine = bySource.get(source);
    const have = mine?.size ?? 0;
    if (have >= caps.perSource) {
      refused.perSource++;
      socket.destroy();
      return;
    }
    if (total >= caps.max) {
      const victim = idleVictim(have);
      if (!victim) {
        refused.full++;
        socket.destroy();
        return;
      }
      refused.evicted++;
      forget(victim);
      victim.socket.destroy();
    }
    const conn: Conn = { socket, source, key: connKey(socket), busy: 0, idleSince: now() };
    const set = mine ?? new Set<Conn>();
    if (!mine) bySource.set(source, set);
    set.add(conn);
    byKey.set(conn.key, conn);
    total++;
    socket.once('close', () => forget(conn));
  });

  function forget(conn: Conn): void {
    const set = bySource.get(conn.source);
    if (!set?.delete(conn)) return;
    if (set.size === 0) bySource.delete(conn.source);
    byKey.delete(conn.key);
    total--;
  }

  // The request's socket is the TLS socket over the accepted one; both report the same peer address and port. Found
  // once per connection by that key, then by the socket itself.
  const bySocket = new WeakMap<object, Conn>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let conn = bySocket.get(req.socket);
    if (!conn) {
      conn = byKey.get(connKey(req.socket));
      if (!conn) return;
      bySocket.set(req.socket, conn);
    }
    const c = conn;
    c.busy++;
    res.on('close', () => {
      c.busy--;
      c.idleSince = now();
    });
  });

  return {
    count: (source) => (source === undefined ? total : bySource.get(source)?.size ?? 0),
    refused,
  };
}
