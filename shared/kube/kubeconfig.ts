// Credentials for talking to the apiserver without @kubernetes/client-node: a kubeconfig file (its current context)
// or the in-cluster service account. For processes that use only KubeRest and REST watches (the node daemon), where
// client-node's KubeConfig would load its whole module graph (auth plugins, fetch, YAML, websockets) for a token
// and a CA. The controller manager uses it too, falling back to client-node for plugin users; the webhook keeps
// client-node's KubeConfig for its typed clients; makeRest accepts either (shared/kube/rest.ts).
//
// Supported, as client-go reads them: server, certificate-authority(-data), insecure-skip-tls-verify,
// tls-server-name, client-certificate(-data) / client-key(-data), token, tokenFile, username/password. exec and
// auth-provider plugins are refused with a clear error: a node daemon runs with its ServiceAccount.
import { readFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { isIPv6 } from 'node:net';
import { dirname, isAbsolute, join } from 'node:path';
import yaml from 'js-yaml';

/** Where an API server is and how to authenticate to it; what makeRest needs. */
export interface ApiServer {
  /** e.g. `https://10.0.0.1:443`. */
  readonly server: string;
  /** TLS material of the connection, fixed for the process (one keep-alive agent carries it). */
  readonly tls: Pick<RequestOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized' | 'servername'>;
  /** The Authorization header for the next request (a token file is re-read, as client-go does, once a minute). */
  authorization(): string | undefined;
}

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
/** client-go's cachingTokenSource period for a token file: a projected token is rotated well before it expires. */
const TOKEN_REREAD_MS = 60_000;

export class KubeconfigError extends Error {
  constructor(where: string, message: string) {
    super(`${where}: ${message}`);
    this.name = 'KubeconfigError';
  }
}

/** The kubeconfig's user authenticates through an exec or auth-provider plugin, which this loader does not run. */
export class UnsupportedAuthError extends KubeconfigError {
  constructor(where: string, message: string) {
    super(where, message);
    this.name = 'UnsupportedAuthError';
  }
}

/** The subset of a kubeconfig file this loader reads (names as in the file). */
interface KubeconfigFile {
  'current-context'?: string;
  clusters?: Array<{ name?: string; cluster?: Record<string, unknown> }>;
  users?: Array<{ name?: string; user?: Record<string, unknown> }>;
  contexts?: Array<{ name?: string; context?: { cluster?: string; user?: string } }>;
}

export interface FileSystem {
  readFileSync(path: string): Buffer;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Reads a token file now and again after TOKEN_REREAD_MS; a failed re-read keeps the last token. */
function tokenFileSource(path: string, fs: FileSystem, now: () => number): () => string {
  let token = fs.readFileSync(path).toString('utf8').trim();
  let readAt = now();
  return () => {
    if (now() - readAt >= TOKEN_REREAD_MS) {
      readAt = now();
      try { token = fs.readFileSync(path).toString('utf8').trim(); } catch { /* keep the last one; the apiserver says 401 if it expired */ }
    }
    return token;
  };
}

/**
 * The current context of a parsed kubeconfig. Relative file paths are resolved against `baseDir` (the file's
 * directory), as kubectl does.
 */
export function apiServerFromKubeconfig(doc: unknown, baseDir: string, opts: { fs?: FileSystem; now?: () => number; where?: string } = {}): ApiServer {
  const fs = opts.fs ?? { readFileSync };
  const now = opts.now ?? Date.now;
  const where = opts.where ?? 'kubeconfig';
  const k = (doc ?? {}) as KubeconfigFile;
  if (typeof k !== 'object') throw new KubeconfigError(where, 'not a kubeconfig (want a YAML or JSON object)');
  const contextName = str(k['current-context']);
  if (!contextName) throw new KubeconfigError(where, 'no current-context');
  const context = k.contexts?.find((c) => c.name === contextName)?.context;
  if (!context) throw new KubeconfigError(where, `current-context ${JSON.stringify(contextName)} is not among its contexts`);
  const cluster = k.clusters?.find((c) => c.name === context.cluster)?.cluster;
  if (!cluster) throw new KubeconfigError(where, `cluster ${JSON.stringify(context.cluster ?? '')} of context ${JSON.stringify(contextName)} is not among its clusters`);
  const user = context.user ? k.users?.find((u) => u.name === context.user)?.user : {};
  if (!user) throw new KubeconfigError(where, `user ${JSON.stringify(context.user)} of context ${JSON.stringify(contextName)} is not among its users`);

  const server = str(cluster.server);
  if (!server) throw new KubeconfigError(where, `cluster ${JSON.stringify(context.cluster)} has no server`);
  const path = (p: string) => (isAbsolute(p) ? p : join(baseDir, p));
  const material = (dataKey: string, fileKey: string, o: Record<string, unknown>): Buffer | undefined => {
    const data = str(o[dataKey]);
    if (data) return Buffer.from(data, 'base64');
    const file = str(o[fileKey]);
    if (!file) return undefined;
    try { return fs.readFileSync(path(file)); } catch (err) { throw new KubeconfigError(where, `cannot read ${fileKey} ${path(file)}: ${(err as Error).message}`); }
  };
  for (const plugin of ['exec', 'auth-provider'] as const) {
    if (user[plugin]) throw new UnsupportedAuthError(where, `user ${JSON.stringify(context.user)} uses ${plugin}, which this process does not support (give it a token, a token file or a client certificate)`);
  }

  const tls: ApiServer['tls'] = {
    ca: material('certificate-authority-data', 'certificate-authority', cluster),
    cert: material('client-certificate-data', 'client-certificate', user),
    key: material('client-key-data', 'client-key', user),
    rejectUnauthorized: cluster['insecure-skip-tls-verify'] !== true,
    servername: str(cluster['tls-server-name']),
  };
  const token = str(user.token);
  const tokenFile = str(user.tokenFile);
  const username = str(user.username);
  let authorization: () => string | undefined = () => undefined;
  if (token) authorization = () => `Bearer ${token}`;
  else if (tokenFile) {
    const read = tokenFileSource(path(tokenFile), fs, now);
    authorization = () => `Bearer ${read()}`;
  } else if (username) {
    const basic = `Basic ${Buffer.from(`${username}:${str(user.password) ?? ''}`).toString('base64')}`;
    authorization = () => basic;
  }
  return { server: server.replace(/\/+$/, ''), tls, authorization };
}

/** A kubeconfig file (YAML or JSON). */
export function loadKubeconfigFile(file: string, opts: { fs?: FileSystem; now?: () => number } = {}): ApiServer {
  const fs = opts.fs ?? { readFileSync };
  let text: string;
  try { text = fs.readFileSync(file).toString('utf8'); } catch (err) { throw new KubeconfigError(file, `cannot read: ${(err as Error).message}`); }
  let doc: unknown;
  try { doc = yaml.load(text); } catch (err) { throw new KubeconfigError(file, `not YAML: ${(err as Error).message}`); }
  return apiServerFromKubeconfig(doc, dirname(file), { ...opts, fs, where: file });
}

/** The API server's URL in a pod, from KUBERNETES_SERVICE_HOST/PORT; outside one there is none, which is an error. */
export function inClusterServer(env: Record<string, string | undefined>): string {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new KubeconfigError('in-cluster config', 'KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set (or give KUBECONFIG)');
  return `https://${isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/** The pod's service account and KUBERNETES_SERVICE_HOST/PORT, as client-go's rest.InClusterConfig. */
export function inClusterApiServer(env: Record<string, string | undefined>, opts: { fs?: FileSystem; now?: () => number; dir?: string } = {}): ApiServer {
  const fs = opts.fs ?? { readFileSync };
  const dir = opts.dir ?? SERVICE_ACCOUNT_DIR;
  const server = inClusterServer(env);
  let ca: Buffer;
  let read: () => string;
  try {
    ca = fs.readFileSync(join(dir, 'ca.crt'));
    read = tokenFileSource(join(dir, 'token'), fs, opts.now ?? Date.now);
  } catch (err) {
    throw new KubeconfigError('in-cluster config', `cannot read the service account under ${dir}: ${(err as Error).message}`);
  }
  return {
    server,
    tls: { ca, rejectUnauthorized: true },
    authorization: () => `Bearer ${read()}`,
  };
}

/** KUBECONFIG path when given, else the in-cluster service account. */
export function loadApiServer(opts: { kubeconfig: string | undefined }, env: Record<string, string | undefined>): ApiServer {
  return opts.kubeconfig ? loadKubeconfigFile(opts.kubeconfig) : inClusterApiServer(env);
}
