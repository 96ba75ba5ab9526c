// Per-phase figures for bench:distribution, so a slow phase can be told apart from a slow machine: wall time, the
// 1-minute load average, CPU seconds of every cluster process (from /proc), the apiserver's own request counts by
// verb and resource and its admission-webhook latency (from its /metrics), and the API requests the controllers made.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { loadavg } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Registry } from 'prom-client';
import { parseApiserverMetrics, parseSample } from '../apiserver-metrics.js';

export interface MeteredProcess { name: string; pid: number }

interface Snapshot {
  at: number;
  load: number;
  cpu: Map<string, number>;
  /** `VERB resource[/subresource]` → requests, summed over codes. */
  requests: Map<string, number>;
  /** webhook name → [seconds summed, calls]. */
  webhooks: Map<string, [number, number]>;
  /** `VERB resource` → [seconds summed, requests]: the apiserver's own request latency. */
  latency: Map<string, [number, number]>;
  controller: Map<string, number>;
  /** `webhook result` → reviews, from the kruise-ts webhook's own /metrics (e.g. whether reviews came back patched). */
  reviews: Map<string, number>;
  /** controller name → [seconds spent reconciling, reconciles] (the runner's own metrics). */
  reconciles: Map<string, [number, number]>;
}

export interface PhaseReport {
  name: string;
  seconds: number;
  loadStart: number;
  loadEnd: number;
  text: string;
}

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** utime + stime of one process in seconds, or undefined when it is gone. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** GET a non-JSON path (/metrics) with the kubeconfig's credentials. */
async function getText(kc: KubeConfig, path: string): Promise<string> {
  const server = new URL(kc.getCurrentCluster()!.server);
  const opts: https.RequestOptions = { method: 'GET', hostname: server.hostname, port: server.port, path, timeout: 30_000 };
  await kc.applyToHTTPSOptions(opts);
  return new Promise((resolve, reject) => {
    const req = https.request(opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`GET ${path}: ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: timeout`)));
    req.on('error', reject);
    req.end();
  });
}

/** `/apis/g/v/namespaces/ns/configmaps/name` → `configmaps`; a subresource is kept (`nodeimages/status`). */
export function resourceOfPath(path: string): string {
  const parts = path.split('?')[0]!.split('/').filter(Boolean);
  let rest = parts[0] === 'api' ? parts.slice(2) : parts.slice(3);
  if (rest[0] === 'namespaces' && rest.length > 2) rest = rest.slice(2);
  return rest.length >= 3 ? `${rest[0]}/${rest[2]}` : rest[0] ?? '?';
}

const diff = (a: Map<string, number>, b: Map<string, number>) => {
  const out = new Map<string, number>();
  for (const [k, v] of b) if (v - (a.get(k) ?? 0) > 0) out.set(k, v - (a.get(k) ?? 0));
  return out;
};
const pairDiff = (a: Map<string, [number, number]>, b: Map<string, [number, number]>) => {
  const out = new Map<string, [number, number]>();
  for (const [k, [s, n]] of b) {
    const [s0, n0] = a.get(k) ?? [0, 0];
    if (n - n0 > 0) out.set(k, [s - s0, n - n0]);
  }
  return out;
};
const total = (m: Map<string, number>) => [...m.values()].reduce((x, y) => x + y, 0);
const top = (m: Map<string, number>, n: number) => {
  const sorted = [...m].sort((a, b) => b[1] - a[1]);
  const shown = sorted.slice(0, n).map(([k, v]) => `${k} ${v}`);
  const rest = sorted.slice(n).reduce((x, [, v]) => x + v, 0);
  return `${total(m)}${shown.length ? ` (${shown.join(', ')}${rest ? `, other ${rest}` : ''})` : ''}`;
};
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;

export class Meter {
  private readonly controller = new Map<string, number>();
  /** performance.now() of the controllers' first and last request in the running phase. */
  private span: { first?: number; last?: number } = {};
  readonly reports: PhaseReport[] = [];

  constructor(private readonly kc: KubeConfig, private readonly processes: () => readonly MeteredProcess[], private readonly registry?: Registry,
    private readonly webhookMetricsUrl?: string) {}

  private async reviews(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!this.webhookMetricsUrl) return out;
    const text = await (await fetch(this.webhookMetricsUrl)).text();
    for (const line of text.split('\n')) {
      const sample = parseSample(line);
      if (sample?.name !== 'kruise_webhook_admission_requests_total') continue;
      out.set(`${sample.labels.webhook} ${sample.labels.result}`, sample.value);
    }
    return out;
  }

  private async reconciles(): Promise<Map<string, [number, number]>> {
    const out = new Map<string, [number, number]>();
    const metric = async (name: string) => (await this.registry?.getSingleMetric(name)?.get())?.values ?? [];
    for (const v of await metric('controller_runtime_reconcile_total')) {
      const c = String(v.labels.controller);
      out.set(c, [out.get(c)?.[0] ?? 0, (out.get(c)?.[1] ?? 0) + v.value]);
    }
    for (const v of await metric('controller_runtime_reconcile_time_seconds')) {
      if ((v as { metricName?: string }).metricName !== 'controller_runtime_reconcile_time_seconds_sum') continue;
      const c = String(v.labels.controller);
      out.set(c, [v.value, out.get(c)?.[1] ?? 0]);
    }
    return out;
  }

  /** For makeRest's onRequest: counts the controllers' requests by verb and resource. */
  readonly onRequest = (method: string, path: string) => {
    const key = `${method} ${resourceOfPath(path)}`;
    this.controller.set(key, (this.controller.get(key) ?? 0) + 1);
    const now = performance.now();
    this.span.first ??= now;
    this.span.last = now;
  };

  private async snapshot(): Promise<Snapshot> {
    const cpu = new Map<string, number>();
    for (const p of this.processes()) {
      const s = cpuSeconds(p.pid);
      if (s !== undefined) cpu.set(p.name, s);
    }
    const own = process.cpuUsage();
    cpu.set('bench (controllers + bench client)', (own.user + own.system) / 1e6);
    const metrics = parseApiserverMetrics(await getText(this.kc, '/metrics'));
    return { at: performance.now(), load: loadavg()[0]!, cpu, ...metrics, controller: new Map(this.controller), reconciles: await this.reconciles(),
      reviews: await this.reviews() };
  }

  /** Runs `f` as one phase and records its figures; the phase's time is `f`'s. */
  async phase<T>(name: string, f: () => Promise<T>): Promise<{ value: T; seconds: number }> {
    const before = await this.snapshot();
    this.span = {};
    const t0 = performance.now();
    const value = await f();
    const seconds = (performance.now() - t0) / 1000;
    const span = this.span;
    const after = await this.snapshot();
    let text = this.describe(name, seconds, before, after);
    // When the controllers started and stopped sending requests: reaction time versus write throughput.
    if (span.first !== undefined && span.last !== undefined) {
      text = text.replace('\n', `\n  controller requests from +${((span.first - t0) / 1000).toFixed(2)} s to +${((span.last - t0) / 1000).toFixed(2)} s\n`);
    }
    this.reports.push({ name, seconds, loadStart: before.load, loadEnd: after.load, text });
    process.stdout.write(`${this.reports.at(-1)!.text}\n`);
    return { value, seconds };
  }

  private describe(name: string, seconds: number, a: Snapshot, b: Snapshot): string {
    const requests = diff(a.requests, b.requests);
    // WATCH counts watch starts, not events; shown, but not what a phase costs.
    const writes = new Map([...requests].filter(([k]) => /^(POST|PUT|PATCH|DELETE|APPLY)\b/.test(k)));
    const reads = new Map([...requests].filter(([k]) => !writes.has(k)));
    const latency = pairDiff(a.latency, b.latency);
    const slowest = [...latency].filter(([k]) => writes.has(k)).sort((x, y) => y[1][1] - x[1][1]).slice(0, 3)
      .map(([k, [s, n]]) => `${k} ${ms(s / n)}`).join(', ');
    const webhooks = [...pairDiff(a.webhooks, b.webhooks)].map(([k, [s, n]]) => `${k} ${n}× ${ms(s / n)}`).join(', ');
    const reviews = diff(a.reviews, b.reviews);
    const reconciles = [...pairDiff(a.reconciles, b.reconciles)].map(([k, [t, n]]) => `${k} ${n} (${t.toFixed(2)} s)`).join(', ');
    const cpu = [...b.cpu].map(([k, v]) => `${k} ${(v - (a.cpu.get(k) ?? v)).toFixed(1)}`).join(', ');
    return [
      `phase ${name}: ${seconds.toFixed(2)} s, load average ${a.load.toFixed(2)} → ${b.load.toFixed(2)}`,
      `  controller API requests  ${top(diff(a.controller, b.controller), 6)}`,
      `  apiserver writes         ${top(writes, 6)}`,
      `  apiserver reads/watches  ${top(reads, 4)}`,
      ...(slowest ? [`  apiserver mean latency   ${slowest}`] : []),
      ...(webhooks ? [`  webhook calls            ${webhooks}`] : []),
      ...(reviews.size ? [`  kruise-ts webhook        ${[...reviews].map(([k, n]) => `${k} ${n}`).join(', ')}`] : []),
      ...(reconciles ? [`  reconciles               ${reconciles}`] : []),
      `  CPU seconds              ${cpu}`,
    ].join('\n');
  }
}
