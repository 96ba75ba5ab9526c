// A small JSON REST client over the kubeconfig's credentials, for what client-node 1.4.0's typed APIs make awkward:
// any resource by path, status subresources, merge / JSON / server-side-apply patches with an explicit content type.
// Objects stay plain JSON (no model classes), so unknown fields survive a read-modify-write (client-node#2962).
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig, KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';
import { resourcePath, type PathOptions, type Resource } from './resources.js';

/** A non-2xx answer from the apiserver. `code` is the HTTP status, like client-node's ApiException. */
export class KubeApiError extends Error {
  readonly code: number;
  /** metav1.Status reason, e.g. NotFound, Conflict, AlreadyExists, Invalid. */
  readonly reason: string | undefined;
  constructor(method: string, path: string, code: number, body: string) {
    let status: { message?: string; reason?: string } = {};
    try { status = JSON.parse(body) as typeof status; } catch { /* not a Status object */ }
    super(`${method} ${path}: ${code} ${status.message ?? body.slice(0, 200)}`);
    this.name = 'KubeApiError';
    this.code = code;
    this.reason = status.reason;
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

export interface KubeRest {
  get<T extends KubernetesObject>(r: Resource, o: PathOptions & { name: string }): Promise<T>;
  /** get, with NotFound as undefined. */
  find<T extends KubernetesObject>(r: Resource, o: PathOptions & { name: string }): Promise<T | undefined>;
  list<T extends KubernetesObject>(r: Resource, o?: ListOptions): Promise<KubernetesListObject<T>>;
  create<T extends KubernetesObject>(r: Resource, obj: T, o?: { fieldManager?: string }): Promise<T>;
  replace<T extends KubernetesObject>(r: Resource, obj: T, o?: { subresource?: 'status'; fieldManager?: string }): Promise<T>;
  patch<T extends KubernetesObject>(r: Resource, o: PathOptions & { name: string }, type: PatchType, body: unknown,
    q?: { fieldManager?: string; force?: boolean }): Promise<T>;
  /** Resolves false when the object was already gone. */
  delete(r: Resource, o: PathOptions & { name: string }, q?: { propagationPolicy?: 'Background' | 'Foreground' | 'Orphan'; uid?: string }): Promise<boolean>;
}

export interface RestOptions {
  /** Per-request timeout; the apiserver's own default is 60 s. */
  timeoutMs?: number;
  /** Called once per request with its method, for API-request accounting in benchmarks. */
  onRequest?: (method: string, path: string) => void;
}

export function makeRest(kc: KubeConfig, opts: RestOptions = {}): KubeRest {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const server = new URL(cluster.server);
  const timeoutMs = opts.timeoutMs ?? 30_000;

  const request = async <T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> => {
    opts.onRequest?.(method, path);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const reqOpts: https.RequestOptions = {
      method, hostname: server.hostname, port: server.port || (server.protocol === 'https:' ? 443 : 80), path,
      headers: { Accept: 'application/json', ...(payload ? { 'Content-Type': contentType, 'Content-Length': payload.length } : {}) },
      timeout: timeoutMs,
    };
    await kc.applyToHTTPSOptions(reqOpts);
    const transport = server.protocol === 'https:' ? https : http;
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = transport.request(reqOpts, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)));
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
      const body = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: q.propagationPolicy, ...(q.uid ? { preconditions: { uid: q.uid } } : {}) };
      try { await request('DELETE', resourcePath(r, o), body); return true; } catch (err) { if (isNotFound(err)) return false; throw err; }
    },
  };
  return rest;
}
