// The key the per-source limits use for a connection: its peer's IP address (review N-H3, N-H4).
import type { Socket } from 'node:net';

/**
 * The peer's address, IPv4-mapped IPv6 (`::ffff:10.0.0.1`, what a dual-stack listener reports) written as IPv4, so
 * one client has one key whichever way it connected. 'unknown' once the socket is gone.
 */
export function sourceAddress(socket: Pick<Socket, 'remoteAddress'>): string {
  const a = socket.remoteAddress;
  if (a === undefined) return 'unknown';
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
}
