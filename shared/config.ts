// Process configuration: parsed once from the environment, validated with TypeBox, frozen, passed down (style P10).
// Env names follow OpenKruise's webhook-controller (spec/webhooks.md §6) so existing Helm values keep their meaning.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

const Env = Type.Object({
  POD_NAMESPACE: Type.String({ minLength: 1, default: 'kruise-system' }),
  SECRET_NAME: Type.String({ minLength: 1, default: 'kruise-webhook-certs' }),
  SERVICE_NAME: Type.String({ minLength: 1, default: 'kruise-webhook-service' }),
  WEBHOOK_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 9876 }),
  WEBHOOK_HOST: Type.Optional(Type.String({ minLength: 1 })),
  WEBHOOK_CERT_DIR: Type.String({ minLength: 1, default: '/tmp/kruise-webhook-certs' }),
  WEBHOOK_CERT_WRITER: Type.Optional(Type.Union([Type.Literal('secret'), Type.Literal('fs'), Type.Literal('external')])),
  CERTS_RENEW_BEFORE: Type.String({ pattern: '^[0-9]+[dmy]$', default: '180d' }),
  BIND_ADDRESS: Type.String({ minLength: 1, default: '127.0.0.1' }),
  // No schema default: the manager listens on 8000, the daemon on upstream's 10221.
  HEALTH_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  KUBECONFIG: Type.Optional(Type.String({ minLength: 1 })),
  LOG_LEVEL: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)), { default: 'info' }),
  FEATURE_GATES: Type.String({ default: '' }),
  POD_NAME: Type.Optional(Type.String({ minLength: 1 })),
  LEADER_ELECT: Type.Boolean({ default: true }),
  LEADER_ELECTION_ID: Type.String({ minLength: 1, default: 'kruise-manager' }),
  CONTROLLERS: Type.String({ default: '' }),
  // The node daemon (spec/daemon-and-controllers.md §1.1).
  NODE_NAME: Type.Optional(Type.String({ minLength: 1 })),
  CRI_ENDPOINT: Type.Optional(Type.String({ minLength: 1 })),
  CRI_SOCKET_FILE: Type.Optional(Type.String({ minLength: 1 })),
  MAX_WORKERS_FOR_PULL_IMAGE: Type.Integer({ default: -1 }),
  // NodeImage / ImagePullJob (spec/daemon-and-controllers.md §2.3, §3.2, §3.3); names after upstream's flags/env.
  KRUISE_DAEMON_CONFIG_NS: Type.String({ minLength: 1, default: 'kruise-daemon-config' }),
  NODEIMAGE_CREATION_DELAY_SECONDS: Type.Integer({ minimum: 0, default: 30 }),
  DEFAULT_TTLSECONDS_FOR_ALWAYS_NODEIMAGE: Type.Integer({ minimum: 0, maximum: 31 * 24 * 3600, default: 300 }),
  // API timeouts and cache health, for every deployable (kruise-ts's own settings; shared/kube/cache-health.ts).
  KUBE_API_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: 30 }),
  WATCH_IDLE_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, default: 180 }),
  HEALTH_STALE_AFTER_SECONDS: Type.Integer({ minimum: 1, default: 300 }),
  HEALTH_LIVENESS_STALE_AFTER_SECONDS: Type.Integer({ minimum: 1, default: 900 }),
});

type ParsedEnv = Static<typeof Env>;

export type CertWriter = 'secret' | 'fs' | 'external';

/** How long API calls may take and how long a cache may hear nothing before health reports it. */
export interface ApiHealthConfig {
  /** Per API request: connect, TLS, headers and body (client-node's clients and the REST client alike). */
  readonly apiTimeoutMs: number;
  /** An open watch without an event or bookmark for this long is re-opened (the apiserver bookmarks every ~1 min). */
  readonly watchIdleTimeoutMs: number;
  /** Readiness fails while a cache has heard nothing from the apiserver for longer than this. */
  readonly healthStaleAfterMs: number;
  /** Liveness (/healthz) fails while a cache has heard nothing for longer than this: the kubelet restarts the process. */
  readonly livenessStaleAfterMs: number;
}

export interface Config extends ApiHealthConfig {
  readonly namespace: string;
  readonly secretName: string;
  readonly serviceName: string;
  readonly webhookPort: number;
  /** Set ⇒ webhook configurations use `url: https://host:port<path>` instead of a Service reference. */
  readonly webhookHost: string | undefined;
  readonly certDir: string;
  readonly certWriter: CertWriter;
  readonly renewBeforeMs: number;
  readonly bindAddress: string;
  readonly healthPort: number;
  readonly kubeconfig: string | undefined;
  readonly logLevel: ParsedEnv['LOG_LEVEL'];
  readonly featureGates: Readonly<Record<FeatureGate, boolean>>;
  /** This replica's pod name (downward API); the leader-election identity is derived from it. */
  readonly podName: string | undefined;
  /** Off only for a single-replica manager (tests, benchmarks): controllers then run without a Lease. */
  readonly leaderElect: boolean;
  readonly leaderElectionId: string;
  /** Controllers to run, by name; empty = all. */
  readonly controllers: readonly string[];
  /** The only namespace the daemon reads Secrets in; ImagePullJob copies pull secrets here. */
  readonly daemonConfigNamespace: string;
  /** How long a Node must have been Ready before its NodeImage is created (upstream --nodeimage-creation-delay). */
  readonly nodeImageCreationDelayMs: number;
  /** Added to the TTL of tags written by Always jobs (upstream --default-ttlseconds-for-always-nodeimage). */
  readonly defaultTtlSecondsForAlwaysNodeImage: number;
}

/** Gates consulted by the admission handlers and the controllers; defaults follow the Kruise Helm chart (spec §5). */
export type FeatureGate = 'KruiseDaemon' | 'ImagePullJobGate' | 'ResourceDistributionGate' | 'SidecarSetPatchPodMetadataDefaultsAllowed';
const gateDefaults: Record<FeatureGate, boolean> = {
  KruiseDaemon: true,
  ImagePullJobGate: true,
  ResourceDistributionGate: false,
  SidecarSetPatchPodMetadataDefaultsAllowed: false,
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Upstream's `<n>d|m|y` with m = 30 days and y = 365 days. */
export function parseRenewBefore(s: string): number {
  const m = /^([0-9]+)([dmy])$/.exec(s);
  if (!m) throw new Error(`invalid duration ${JSON.stringify(s)}, want <n>d|m|y`);
  const days = { d: 1, m: 30, y: 365 }[m[2] as 'd' | 'm' | 'y'];
  return Number(m[1]) * days * DAY_MS;
}

function parseGates(s: string, problems: string[]): Record<FeatureGate, boolean> {
  const gates = { ...gateDefaults };
  for (const part of s.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, value] = part.split('=');
    if (!name || !(name in gateDefaults) || (value !== 'true' && value !== 'false')) {
      problems.push(`FEATURE_GATES: cannot use ${JSON.stringify(part)} (known gates: ${Object.keys(gateDefaults).join(', ')}; want Name=true|false)`);
      continue;
    }
    gates[name as FeatureGate] = value === 'true';
  }
  return gates;
}

/**
 * A healthy quiet watch re-opens after its idle window plus at most one request timeout; a cache must be allowed to
 * be silent that long before readiness fails, and liveness only fails after readiness.
 */
function apiHealth(e: ParsedEnv, problems: string[]): ApiHealthConfig {
  // A value the schema refused is NaN here, and NaN compares false: only that value's own problem is listed.
  const c = {
    apiTimeoutMs: e.KUBE_API_TIMEOUT_SECONDS * 1000,
    watchIdleTimeoutMs: e.WATCH_IDLE_TIMEOUT_SECONDS * 1000,
    healthStaleAfterMs: e.HEALTH_STALE_AFTER_SECONDS * 1000,
    livenessStaleAfterMs: e.HEALTH_LIVENESS_STALE_AFTER_SECONDS * 1000,
  };
  if (c.healthStaleAfterMs <= c.watchIdleTimeoutMs + c.apiTimeoutMs) {
    problems.push('HEALTH_STALE_AFTER_SECONDS: must be more than WATCH_IDLE_TIMEOUT_SECONDS + KUBE_API_TIMEOUT_SECONDS, or a quiet watch reads as stale');
  }
  if (c.livenessStaleAfterMs < c.healthStaleAfterMs) problems.push('HEALTH_LIVENESS_STALE_AFTER_SECONDS: must be at least HEALTH_STALE_AFTER_SECONDS');
  return c;
}

/** Validates the known keys and applies schema defaults; every problem is collected, none thrown. */
function parseEnv(env: Record<string, string | undefined>): { e: ParsedEnv; featureGates: Record<FeatureGate, boolean>; problems: string[] } {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(Env.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const converted = Value.Default(Env, Value.Convert(Env, picked));
  const problems = [...Value.Errors(Env, converted)].map((e) => `${e.path.slice(1) || '(root)'}: ${e.message} (got ${JSON.stringify(e.value)})`);
  const e = converted as ParsedEnv;
  const featureGates = parseGates(typeof e.FEATURE_GATES === 'string' ? e.FEATURE_GATES : '', problems);
  return { e, featureGates, problems };
}

/**
 * For a composition root: the loaded config, or the problems on stderr and exit code 2 (a misconfigured process
 * should crash-loop with a readable reason, not start half-configured). Other errors propagate.
 */
export function configOrExit<T>(load: (env: Record<string, string | undefined>) => T, env: Record<string, string | undefined>): T {
  try {
    return load(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}

/** Reads only the keys it knows; throws ConfigError listing every problem at once. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const { e, featureGates, problems } = parseEnv(env);
  const health = apiHealth(e, problems);
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze({
    ...health,
    namespace: e.POD_NAMESPACE,
    secretName: e.SECRET_NAME,
    serviceName: e.SERVICE_NAME,
    webhookPort: e.WEBHOOK_PORT,
    webhookHost: e.WEBHOOK_HOST,
    certDir: e.WEBHOOK_CERT_DIR,
    // Upstream: fs is the default writer when the webhook runs outside the cluster (WEBHOOK_HOST set).
    certWriter: e.WEBHOOK_CERT_WRITER ?? (e.WEBHOOK_HOST ? 'fs' : 'secret'),
    renewBeforeMs: parseRenewBefore(e.CERTS_RENEW_BEFORE),
    bindAddress: e.BIND_ADDRESS,
    healthPort: e.HEALTH_PORT ?? 8000,
    kubeconfig: e.KUBECONFIG,
    logLevel: e.LOG_LEVEL,
    featureGates: Object.freeze(featureGates),
    podName: e.POD_NAME,
    leaderElect: e.LEADER_ELECT,
    leaderElectionId: e.LEADER_ELECTION_ID,
    controllers: Object.freeze(e.CONTROLLERS.split(',').map((c) => c.trim()).filter(Boolean)),
    daemonConfigNamespace: e.KRUISE_DAEMON_CONFIG_NS,
    nodeImageCreationDelayMs: e.NODEIMAGE_CREATION_DELAY_SECONDS * 1000,
    defaultTtlSecondsForAlwaysNodeImage: e.DEFAULT_TTLSECONDS_FOR_ALWAYS_NODEIMAGE,
  });
}

/** The node daemon's settings (kruise-daemon's env and flags, spec/daemon-and-controllers.md §1.1–1.2). */
export interface DaemonConfig extends ApiHealthConfig {
  /** The node this daemon serves; the DaemonSet sets it from `spec.nodeName`. */
  readonly nodeName: string;
  /** The daemon's own namespace: the only one it reads pull Secrets from. */
  readonly namespace: string;
  /** An explicit CRI socket (`/run/x.sock` or `unix:///run/x.sock`): no discovery. */
  readonly criEndpoint: string | undefined;
  /** Upstream `--socket-file`: a socket file relative to /hostvarrun, used alone. */
  readonly criSocketFile: string | undefined;
  /** Upstream `--max-workers-for-pull-image`; 0 = unbounded (upstream's ≤0). */
  readonly maxConcurrentPulls: number;
  /** The only namespace the daemon reads pull Secrets from (upstream's Role in `kruise-daemon-config`, spec §1.7). */
  readonly daemonConfigNamespace: string;
  readonly bindAddress: string;
  /** `/healthz` and `/metrics`; upstream `--addr=:10221`. */
  readonly healthPort: number;
  readonly kubeconfig: string | undefined;
  readonly logLevel: ParsedEnv['LOG_LEVEL'];
  readonly featureGates: Readonly<Record<FeatureGate, boolean>>;
}

export const DAEMON_HEALTH_PORT = 10221;

export function loadDaemonConfig(env: Record<string, string | undefined>): DaemonConfig {
  const { e, featureGates, problems } = parseEnv(env);
  // Upstream's startup error, word for word.
  if (!e.NODE_NAME) problems.push('NODE_NAME: not found NODE_NAME in environments');
  if (e.CRI_ENDPOINT && e.CRI_SOCKET_FILE) problems.push('CRI_ENDPOINT and CRI_SOCKET_FILE are both set; set one (an absolute socket, or a file under /hostvarrun)');
  const health = apiHealth(e, problems);
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze({
    ...health,
    nodeName: e.NODE_NAME!,
    namespace: e.POD_NAMESPACE,
    criEndpoint: e.CRI_ENDPOINT,
    criSocketFile: e.CRI_SOCKET_FILE,
    maxConcurrentPulls: Math.max(0, e.MAX_WORKERS_FOR_PULL_IMAGE),
    daemonConfigNamespace: e.KRUISE_DAEMON_CONFIG_NS,
    bindAddress: e.BIND_ADDRESS,
    healthPort: e.HEALTH_PORT ?? DAEMON_HEALTH_PORT,
    kubeconfig: e.KUBECONFIG,
    logLevel: e.LOG_LEVEL,
    featureGates: Object.freeze(featureGates),
  });
}
