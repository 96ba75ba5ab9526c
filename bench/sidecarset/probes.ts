// What the SidecarSet bench reads besides the API objects: the apiserver's request counters, the controller's own
// request counters and heap, a process's memory from /proc, and the machine's load.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseApiserverMetrics } from '../apiserver-metrics.js';

export type Counts = Record<string, number>;

/** VmRSS and VmHWM (peak RSS) of a process, in MB. */
export function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

/** The 1-, 5- and 15-minute load averages, as `uptime` prints them. */
export const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/** apiserver_request_total summed by `VERB resource[/subresource]` (watches count once, when they open). */
export function apiserverRequests(kubeconfig: string): Counts {
  const text = execFileSync('kubectl', ['--kubeconfig', kubeconfig, 'get', '--raw', '/metrics'], { encoding: 'utf8', maxBuffer: 256 << 20 });
  return Object.fromEntries(parseApiserverMetrics(text).requests);
}

/**
 * The controller's rest_client_requests_total by method, its V8 heap in use (MB), and the longest event-loop delay
 * since the previous scrape (s): a loop held past the lease's renew deadline (10 s) loses leadership.
 */
export async function controllerMetrics(healthPort: number): Promise<{ requests: Counts; heapMB: number; loopDelayMaxS: number }> {
  const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
  const requests: Counts = {};
  for (const m of text.matchAll(/^rest_client_requests_total\{method="(\w+)"\} (\d+)/gm)) requests[m[1]!] = Number(m[2]);
  const heap = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1] ?? 0);
  const loopDelayMaxS = Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1] ?? 0);
  return { requests, heapMB: Math.round(heap / (1 << 20)), loopDelayMaxS };
}

export const delta = (a: Counts, b: Counts): Counts =>
  Object.fromEntries(Object.keys(b).map((k) => [k, (b[k] ?? 0) - (a[k] ?? 0)] as const).filter(([, v]) => v > 0).sort((x, y) => y[1] - x[1]));
export const total = (r: Counts) => Object.values(r).reduce((x, y) => x + y, 0);
/** `n VERB resource, …` for the `top` largest, the rest summed. */
export function describe(r: Counts, top = 8): string {
  const entries = Object.entries(r);
  const shown = entries.slice(0, top).map(([k, v]) => `${v} ${k}`);
  const rest = entries.slice(top).reduce((s, [, v]) => s + v, 0);
  return `${total(r)}: ${shown.join(', ')}${rest ? `, ${rest} other` : ''}`;
}
