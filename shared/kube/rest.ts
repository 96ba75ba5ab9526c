// A small JSON REST client over the kubeconfig's credentials, for what client-node 1.4.0's typed APIs make awkward:
// any resource by path, status subresources, merge / JSON / server-side-apply patches with an explicit content type,
// and watches. Objects stay plain JSON (no model classes), so unknown fields survive a read-modify-write
// (client-node#2962). Credentials come from client-node's KubeConfig (controller, webhook) or from
// shared/kube/kubeconfig.ts (the node daemon, which loads nothing of client-node); client-node is a type here only.
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig, KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';
import { realClock, type Clock } from '../clock.js';
import type { ApiServer } from './kubeconfig.js';
import { resourcePath, type PathOptions, type Resource } from './resources.js';

/** A non-2xx answer from the apiserver. `code` is the HTTP status, like client-node's ApiException. */
export class KubeApiError extends Error {
  readonly code: number;
  /** metav1.Status reason, e.g. NotFound, Conflict, AlreadyExists, Invalid. */
  readonly reason: string | undefined;
  /** metav1.Status message alone, as client-go's StatusError.Error() prints it (for status fields users read). */
  readonly statusMessage: string;
  constructor(method: string, path: string, code: number, body: string) {
    let status: { message?: string; reason?: string } = {};
    try { status = JSON.parse(body) as typeof status; } catch { /* not a Status object */ }
    super(`${method} ${path}: ${code} ${status.message ?? body.slice(0, 200)}`);
    this.name = 'KubeApiError';
    this.code = code;
    this.reason = status.reason;
    this.statusMessage = status.message ?? `${code} ${body.slice(0, 200)}`;
  }
}

/** A request the apiserver did not answer in time (connect, TLS, headers or body). */
export class KubeTimeoutError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KubeTimeoutError';
  }
}

/**
 * An open watch that delivered neither an event nor a bookmark within its idle window. The apiserver sends a bookmark
 * about every minute to watches that allow them, so a longer silence means a stuck connection (a half-open TCP
 * stream, a wedged proxy), not a quiet resource; the watch is dropped and re-opened from the last version seen.
 */
export class WatchIdleError extends KubeTimeoutError {
  constructor(path: string, idleMs: number) {
    super(`WATCH ${path}: no event or bookmark within ${idleMs} ms`);
    this.name = 'WatchIdleError';
  }
}

const codeOf = (err: unknown): number | undefined => (err as { code?: unknown })?.code as number | undefined;
export const isNotFound = (err: unknown): boolean => codeOf(err) === 404;
/** 409: AlreadyExists on create, Conflict on a stale resourceVersion. */
export const isConflict = (err: unknown): boolean => codeOf(err) === 409;

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';
const contentTypes: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  // SSA takes YAML; JSON is valid YAML (guides/real-cluster.md §8).
  apply: 'application/apply-patch+yaml',
};

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  namespace?: string;
  /** Page size; the answer's metadata.continue then names the next page. */
  limit?: number;
  continue?: string;
}

export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Events after this version; '' or absent = from the current state (the apiserver sends ADDED for each object). */
  resourceVersion?: string;
  /** The apiserver ends the watch cleanly after this long. */
  timeoutSeconds?: number;
  /** Called once the apiserver accepted the watch (200, before any event). */
  onOpen?: () => void;
}

/** One line of a watch stream. ERROR carries a metav1.Status (code 410: the resourceVersion is too old). */
export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

export interface KubeRest {
  get<T extends KubernetesObject>(r: Resource, o: PathOptions & { name: string }): Promise<T>;
  /** get, with NotFound as undefined. */
  find<T extends KubernetesObject>(r: Resource, o: PathOptions & { name: string }): Promise<T | undefined>;
  list<T extends KubernetesObject>(r: Resource, o?: ListOptions): Promise<KubernetesListObject<T>>;
  create<T extends KubernetesObject>(r: Resource, obj: T, o?: { fieldManager?: string }): Promise<T>;
  replace<T extends KubernetesObject>(r: Resource, obj: T, o?: { subresource?: 'status'; fieldManager?: string }): Promise<T>;
  patch<T extends KubernetesObject>(r: Resource, o: PathOptions & { name: string }, type: PatchType, body: unknown,
    q?: { fieldManager?: string; force?: boolean }): Promise<T>;
  /**
   * Resolves false when the object was already gone. `uid` / `resourceVersion` are preconditions: the apiserver
   * answers 409 Conflict when the object is another one, or was written since it was read.
   */
  delete(r: Resource, o: PathOptions & { name: string }, q?: { propagationPolicy?: 'Background' | 'Foreground' | 'Orphan'; uid?: string; resourceVersion?: string }): Promise<boolean>;
  /**
   * A watch (with bookmarks): `onEvent` for every event until the apiserver ends the stream (resolves) or `signal`
   * aborts (resolves). A non-2xx answer rejects with KubeApiError, a broken connection with its error.
   */
  watch<T extends KubernetesObject>(r: Resource, o: WatchOptions, onEvent: (e: WatchEvent<T>) => void, signal: AbortSignal): Promise<void>;
}

export interface RestOptions {
  /**
   * Per-request timeout, as socket inactivity: connect, TLS handshake, headers, and any pause in a body (default
   * 30 s; the apiserver's own request timeout is 60 s). A watch has it until its answer's headers arrived.
   */
  timeoutMs?: number;
  /** How long an open watch may go without an event or bookmark (WatchIdleError); default 3 min. */
  watchIdleTimeoutMs?: number;
  /** The watch idle timers' clock; injected for tests. */
  clock?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** Called once per request with its method (not for watches), for API-request accounting in benchmarks. */
  onRequest?: (method: string, path: string) => void;
  /** e.g. `kruise-daemon/0.1.0`; Node's default (none) otherwise. */
  userAgent?: string;
}

/** How each request reaches the apiserver: its URL, and the credentials and agent put on every request. */
interface Connection {
  server: URL;
  prepare(o: https.RequestOptions): Promise<void>;
}

const isKubeConfig = (src: KubeConfig | ApiServer): src is KubeConfig => typeof (src as KubeConfig).applyToHTTPSOptions === 'function';

function kubeConfigConnection(kc: KubeConfig): Connection {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const server = new URL(cluster.server);
  // client-node's applyToHTTPSOptions builds a new Agent (keepAlive off) for every request, i.e. a TCP connection and
  // a TLS handshake per call. One keep-alive agent over the same TLS material reuses connections; credentials that
  // change per request (bearer tokens) are headers and still come from applyToHTTPSOptions each time. Proxied
  // clusters keep client-node's agent.
  let keepAlive: https.Agent | undefined;
  const agentFor = (o: https.RequestOptions): https.RequestOptions['agent'] => {
    if (cluster.proxyUrl || server.protocol !== 'https:') return o.agent;
    keepAlive ??= new https.Agent({ keepAlive: true, ca: o.ca, cert: o.cert, key: o.key, pfx: o.pfx, passphrase: o.passphrase,
      rejectUnauthorized: o.rejectUnauthorized, servername: o.servername });
    return keepAlive;
  };
  return {
    server,
    async prepare(o) {
      await kc.applyToHTTPSOptions(o);
      o.agent = agentFor(o);
    },
  };
}

function apiServerConnection(api: ApiServer): Connection {
  const server = new URL(api.server);
  const agent = server.protocol === 'https:' ? new https.Agent({ keepAlive: true, ...api.tls }) : new http.Agent({ keepAlive: true });
  return {
    server,
    prepare(o) {
      const authorization = api.authorization();
      if (authorization) o.headers = { ...o.headers, Authorization: authorization };
      o.agent = agent;
      return Promise.resolve();
    },
  };
}

export function makeRest(source: KubeConfig | ApiServer, opts: RestOptions = {}): KubeRest {
  const conn = isKubeConfig(source) ? kubeConfigConnection(source) : apiServerConnection(source);
  const { server } = conn;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const watchIdleMs = opts.watchIdleTimeoutMs ?? 180_000;
  const clock = opts.clock ?? realClock;
  const transport = server.protocol === 'https:' ? https : http;
  // A server URL with a path (a proxy prefix, e.g. https://host/k8s/clusters/c1) keeps it in front of every request.
  const prefix = server.pathname.replace(/\/+$/, '');

  const options = async (method: string, path: string, headers: Record<string, string | number>): Promise<https.RequestOptions> => {
    const reqOpts: https.RequestOptions = {
      method, hostname: server.hostname.replace(/^\[(.*)\]$/, '$1'), port: server.port || (server.protocol === 'https:' ? 443 : 80), path: prefix + path,
      headers: { Accept: 'application/json', ...(opts.userAgent ? { 'User-Agent': opts.userAgent } : {}), ...headers },
      timeout: timeoutMs,
    };
    await conn.prepare(reqOpts);
    return reqOpts;
  };

  const request = async <T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> => {
    opts.onRequest?.(method, path);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const reqOpts = await options(method, path, payload ? { 'Content-Type': contentType, 'Content-Length': payload.length } : {});
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = transport.request(reqOpts, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new KubeTimeoutError(`${method} ${path}: no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
    if (status < 200 || status >= 300) throw new KubeApiError(method, path, status, text);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  const query = (q: Record<string, string | boolean | undefined>) => {
    const s = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') s.set(k, String(v));
    const out = s.toString();
    return out ? `?${out}` : '';
  };
  const where = (obj: KubernetesObject) => ({ namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' });

  const watch = async <T extends KubernetesObject>(r: Resource, o: WatchOptions, onEvent: (e: WatchEvent<T>) => void, signal: AbortSignal): Promise<void> => {
    if (signal.aborted) return;
    const path = resourcePath(r, { namespace: o.namespace }) + query({
      watch: 'true', allowWatchBookmarks: true, resourceVersion: o.resourceVersion, labelSelector: o.labelSelector, fieldSelector: o.fieldSelector,
      timeoutSeconds: o.timeoutSeconds !== undefined ? String(o.timeoutSeconds) : undefined,
    });
    const reqOpts = await options('GET', path, {});
    await new Promise<void>((resolve, reject) => {
      let idle: unknown;
      // Destroying the request also fails the response with its own error; the cause we chose is the one reported.
      let cause: Error | undefined;
      const fail = (err: Error) => (signal.aborted ? resolve() : reject(cause ?? err));
      const stopWith = (err: Error) => { cause ??= err; req.destroy(err); };
      const heard = () => {
        clock.clearTimeout(idle);
        idle = clock.setTimeout(() => stopWith(new WatchIdleError(path, watchIdleMs)), watchIdleMs);
      };
      const req = transport.request(reqOpts, (res) => {
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => reject(new KubeApiError('WATCH', path, status, Buffer.concat(chunks).toString('utf8'))));
          res.on('error', fail);
          return;
        }
        // The stream is open: from here silence is measured in events and bookmarks, not socket bytes.
        req.setTimeout(0);
        heard();
        o.onOpen?.();
        let rest = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          rest += chunk;
          let nl: number;
          while ((nl = rest.indexOf('\n')) >= 0) {
            const line = rest.slice(0, nl);
            rest = rest.slice(nl + 1);
            if (!line.trim()) continue;
            let event: WatchEvent<T>;
            try { event = JSON.parse(line) as WatchEvent<T>; } catch { stopWith(new Error(`WATCH ${path}: not a JSON event: ${line.slice(0, 200)}`)); return; }
            heard();
            onEvent(event);
          }
        });
        res.on('end', () => (cause ? fail(cause) : resolve()));
        res.on('error', fail);
        res.on('aborted', () => fail(new Error(`WATCH ${path}: connection closed mid-stream`)));
      });
      const onAbort = () => { req.destroy(); resolve(); };
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => { clock.clearTimeout(idle); signal.removeEventListener('abort', onAbort); });
      req.on('timeout', () => stopWith(new KubeTimeoutError(`WATCH ${path}: no answer within ${timeoutMs} ms`)));
      req.on('error', fail);
      req.end();
    });
  };

  const rest: KubeRest = {
    get: (r, o) => request('GET', resourcePath(r, o)),
    find: async <T extends KubernetesObject>(r: Resource, o: PathOptions & { name: string }) => {
      try { return await rest.get<T>(r, o); } catch (err) { if (isNotFound(err)) return undefined; throw err; }
    },
    list: (r, o = {}) => request('GET', resourcePath(r, { namespace: o.namespace }) +
      query({ labelSelector: o.labelSelector, fieldSelector: o.fieldSelector, limit: o.limit ? String(o.limit) : undefined, continue: o.continue })),
    create: (r, obj, o = {}) => request('POST', resourcePath(r, { namespace: obj.metadata?.namespace }) + query({ fieldManager: o.fieldManager }), obj),
    replace: (r, obj, o = {}) => request('PUT', resourcePath(r, { ...where(obj), subresource: o.subresource }) + query({ fieldManager: o.fieldManager }), obj),
    patch: (r, o, type, body, q = {}) =>
      request('PATCH', resourcePath(r, o) + query({ fieldManager: q.fieldManager, force: type === 'apply' ? q.force : undefined }), body, contentTypes[type]),
    delete: async (r, o, q = {}) => {
      const preconditions = { ...(q.uid ? { uid: q.uid } : {}), ...(q.resourceVersion ? { resourceVersion: q.resourceVersion } : {}) };
      const body = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: q.propagationPolicy, ...(Object.keys(preconditions).length ? { preconditions } : {}) };
      try { await request('DELETE', resourcePath(r, o), body); return true; } catch (err) { if (isNotFound(err)) return false; throw err; }
    },
    watch,
  };
  return rest;
}
