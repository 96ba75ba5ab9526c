// The tcpSocket handler (spec §6.4): a TCP connect from the daemon's (host) network namespace, closed at once.
import { connect } from 'node:net';
import { dialErrorText } from './go-text.js';
import type { HandlerResult } from './handler-result.js';
import { joinHostPort } from './http-request.js';

/** Connected within `timeoutMs` → success with message ''; else failure with Go's dial error text. Never throws. */
export function tcpProbe(host: string, port: number, timeoutMs: number): Promise<HandlerResult> {
  const address = joinHostPort(host, port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return Promise.resolve({ result: 'failure', message: `dial tcp: address ${address}: invalid port` });
  }
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (r: HandlerResult) => { clearTimeout(timer); socket.destroy(); resolve(r); };
    const timer = setTimeout(() => finish({ result: 'failure', message: `dial tcp ${address}: i/o timeout` }), timeoutMs);
    socket.once('connect', () => finish({ result: 'success', message: '' }));
    socket.once('error', (err) => finish({ result: 'failure', message: dialErrorText(address, err) }));
  });
}
