// One run of a probe (spec §6.4): pick the handler (exec, httpGet, tcpSocket, in that order), apply the timeout
// clamp, and turn the handler's answer into a NodePodProbe state with its (cut) message.
import type { V1Probe } from '@kubernetes/client-node';
import type { RuntimeService } from '../cri/runtime.js';
import { execProbe } from './exec-probe.js';
import { truncateMessage } from './go-text.js';
import type { HandlerKind, HandlerResult } from './handler-result.js';
import { httpProbe } from './http-probe.js';
import { intValue, newProbeRequest } from './http-request.js';
import { tcpProbe } from './tcp-probe.js';

export interface ProbeTarget {
  containerName: string;
  containerId: string;
  /** The NodePodProbe entry's `IP`; '' when the manager wrote the entry before the pod had one. */
  podIP: string;
}

export interface ProbeOutcome {
  state: 'Succeeded' | 'Failed';
  message: string;
}

export interface Handlers {
  exec(runtime: RuntimeService, containerId: string, command: string[], timeoutSeconds: number): Promise<HandlerResult>;
  http: typeof httpProbe;
  tcp: typeof tcpProbe;
}

export const realHandlers: Handlers = { exec: execProbe, http: httpProbe, tcp: tcpProbe };

/**
 * Node's timers fire after 1 ms when asked for more than 2^31-1 ms: a periodSeconds or timeoutSeconds near int32's
 * maximum (which the webhook accepts) would probe every millisecond or time out at once. Waits are capped (~24.8 days).
 */
export const MAX_WAIT_MS = 2_147_483_647;

/** `max(timeoutSeconds, 1)`: no Kubernetes default of 1 s is applied to the stored probe, the clamp gives the same. */
export const timeoutSecondsOf = (p: V1Probe): number => Math.max(p.timeoutSeconds ?? 0, 1);

export function handlerKind(p: V1Probe): HandlerKind | undefined {
  if (p.exec) return 'exec';
  if (p.httpGet) return 'httpGet';
  if (p.tcpSocket) return 'tcpSocket';
  return undefined;
}

/**
 * Kruise deviation (docs/compatibility.md, PodProbeMarker/daemon): upstream probes `http://:<port>` — the node's own
 * port — when the entry has no IP yet; here that is an error (nothing published) until the manager fills the IP in.
 */
function hostOrPodIP(host: string | undefined, podIP: string): string {
  const h = host || podIP;
  if (!h) throw new Error('the pod has no IP in the NodePodProbe yet');
  return h;
}

/** Runs the handler once. Throws when it could not run (grpc or no handler: `missing probe handler for <container>`). */
export async function runHandler(runtime: RuntimeService, p: V1Probe, t: ProbeTarget, handlers: Handlers = realHandlers): Promise<HandlerResult> {
  const timeoutSeconds = timeoutSecondsOf(p);
  if (p.exec) return handlers.exec(runtime, t.containerId, p.exec.command ?? [], timeoutSeconds);
  if (p.httpGet) {
    const req = newProbeRequest({ ...p.httpGet, host: hostOrPodIP(p.httpGet.host, t.podIP) }, t.podIP);
    return handlers.http(req, Math.min(timeoutSeconds * 1000, MAX_WAIT_MS));
  }
  if (p.tcpSocket) return handlers.tcp(hostOrPodIP(p.tcpSocket.host, t.podIP), intValue(p.tcpSocket.port), Math.min(timeoutSeconds * 1000, MAX_WAIT_MS));
  throw new Error(`missing probe handler for ${t.containerName}`);
}

/** The handler's answer as a state: success and warning are `Succeeded`, failure `Failed`; the message is cut (§11.9). */
export function outcomeOf(r: HandlerResult): ProbeOutcome {
  return { state: r.result === 'failure' ? 'Failed' : 'Succeeded', message: truncateMessage(r.message) };
}
