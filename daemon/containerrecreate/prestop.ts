// Running a container's preStop hook from the daemon, with kubelet's handler-runner semantics (spec §4.4
// KillContainer): exec through CRI ExecSync, httpGet as an HTTP request sent from the daemon, tcpSocket rejected.
import type { V1ContainerPort, V1HTTPGetAction } from '@kubernetes/client-node';
import type { ProbeHandler } from '../../shared/api/container-recreate-request.js';
import type { RuntimeService } from '../cri/runtime.js';

export interface HookResult {
  ok: boolean;
  /** The hook's output (exec: stdout then stderr; http: status and body) or the reason it could not run. */
  output: string;
}

export interface HttpGetRequest {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** An HTTP GET that resolves with the status and body, or rejects when no response arrives. */
export type HttpGet = (req: HttpGetRequest) => Promise<{ status: number; body: string }>;

export const fetchHttpGet: HttpGet = async ({ url, headers, timeoutMs }) => {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  return { status: res.status, body: (await res.text()).slice(0, 10_240) };
};

export interface HookTarget {
  criId: string;
  preStop: ProbeHandler;
  ports?: V1ContainerPort[];
  /** Whole seconds the hook may take (kubelet waits at most the grace period for it). */
  graceSeconds: number;
}

export interface HookDeps {
  runtime: RuntimeService;
  httpGet?: HttpGet;
}

/** Never throws: a hook that cannot run or fails is a result, and the stop proceeds anyway. */
export async function runPreStop(deps: HookDeps, t: HookTarget): Promise<HookResult> {
  try {
    if (t.preStop.exec) return await runExec(deps.runtime, t);
    if (t.preStop.httpGet) return await runHttpGet(deps.httpGet ?? fetchHttpGet, t.preStop.httpGet, t);
    return { ok: false, output: 'invalid handler' };
  } catch (err) {
    return { ok: false, output: err instanceof Error ? err.message : String(err) };
  }
}

async function runExec(runtime: RuntimeService, t: HookTarget): Promise<HookResult> {
  const cmd = t.preStop.exec?.command ?? [];
  // The runtime enforces the grace period as the exec timeout, so a hung hook never outlives the stop.
  const r = await runtime.execSync(t.criId, cmd, t.graceSeconds);
  const output = Buffer.concat([r.stdout, r.stderr]).toString('utf8');
  return r.exitCode === 0 ? { ok: true, output } : { ok: false, output: output || `command ${JSON.stringify(cmd)} exited with ${r.exitCode}` };
}

async function runHttpGet(get: HttpGet, action: V1HTTPGetAction, t: HookTarget): Promise<HookResult> {
  // kubelet defaults the host to the pod IP, which the daemon's CRI view does not have.
  if (!action.host) return { ok: false, output: 'failed to find networking container' };
  const port = resolvePort(action.port, t.ports);
  if (port === undefined) return { ok: false, output: `unable to resolve port ${JSON.stringify(action.port)}` };
  const scheme = (action.scheme ?? 'HTTP').toLowerCase();
  const path = action.path ? (action.path.startsWith('/') ? action.path : `/${action.path}`) : '/';
  const host = action.host.includes(':') ? `[${action.host}]` : action.host;
  const headers: Record<string, string> = {};
  for (const h of action.httpHeaders ?? []) headers[h.name] = h.value;
  const res = await get({ url: `${scheme}://${host}:${port}${path}`, headers, timeoutMs: Math.max(1, t.graceSeconds) * 1000 });
  // kubelet's HTTP handler treats 2xx and 3xx as success.
  const ok = res.status >= 200 && res.status < 400;
  return { ok, output: ok ? res.body : `HTTP ${res.status}: ${res.body}` };
}

/** A numeric port, a numeric string, or the name of one of the container's ports. */
export function resolvePort(port: number | string | undefined, ports: V1ContainerPort[] | undefined): number | undefined {
  if (typeof port === 'number') return port > 0 && port < 65536 ? port : undefined;
  if (port === undefined || port === '') return undefined;
  if (/^\d+$/.test(port)) return resolvePort(Number(port), ports);
  return ports?.find((p) => p.name === port)?.containerPort;
}
