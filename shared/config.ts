// Process configuration: parsed once from the environment, validated with TypeBox, frozen, passed down (style P10).
// Env names follow OpenKruise's webhook-controller (spec/webhooks.md §6) so existing Helm values keep their meaning.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parseFeatureGates, type FeatureGate } from './feature-gates.js';

const MIB = 1024 * 1024;

/** The admission server's timeouts and caps (webhook/app.ts); env `WEBHOOK_*_SECONDS`, `WEBHOOK_MAX_*`. */
export interface WebhookServerLimits {
  /**
   * Headers plus body must arrive within this (Node's requestTimeout). 30 s: the apiserver gives up on a webhook call
   * after timeoutSeconds, at most 30, so a request still arriving after that has no one waiting for its answer.
   */
  readonly requestTimeoutMs: number;
  /**
   * The TLS handshake, and then the request headers, must each complete within this. 10 s: the apiserver sends its
   * headers in one write; only a slow or hostile client needs more (Node's 60 s let slowloris hold sockets).
   */
  readonly headersTimeoutMs: number;
  /**
   * Socket inactivity while a request is read or answered (Fastify's connectionTimeout). 30 s, as the request
   * timeout: it also cuts a client that stops reading its response, which requestTimeout does not cover.
   */
  readonly connectionTimeoutMs: number;
  /**
   * An idle kept-alive connection is closed after this. 60 s: the apiserver reuses its connections (Go's idle
   * timeout is 90 s), so any cluster admitting a pod a minute keeps saving a TLS handshake per review, while a
   * connection left idle stops holding a maxConnections slot after a minute instead of Fastify's 72 s. Below Go's 90 s
   * as Fastify's default already was: the server, not the client, closes first either way.
   */
  readonly keepAliveTimeoutMs: number;
  /**
   * Open connections at once; more are closed on accept. 1000: each apiserver replica opens one connection per
   * concurrent review (HTTP/1.1), a few dozen in a burst, and an idle TLS connection costs tens of KiB, so the cap
   * bounds that cost to tens of MiB while leaving the apiserver ample headroom.
   */
  readonly maxConnections: number;
  /**
   * Bytes of admission bodies buffered at once across all connections (webhook/admission/byte-budget.ts). 64 MiB:
   * nine maximal (7 MiB) reviews, far above what the apiserver sends at once, and a bound that keeps a flood of
   * stalled bodies well under the container's 1 GiB limit (each such body held up to 7 MiB before).
   */
  readonly maxInFlightBodyBytes: number;
  /**
   * Of those bytes, what the requests of one source address may hold at once, body and reply (review N-H3). 16 MiB:
   * one maximal review with its largest reply (7 + 3 MiB) or one maximal /convert with its reply fits, so no source is
   * refused a single request; a stalled client needs four sources to hold the whole budget, not one. The apiserver's
   * own reviews are a few dozen KiB each, so 16 MiB is hundreds of concurrent reviews from its address; past that a
   * review gets 503 with Retry-After: 1, which the apiserver retries within the webhook's timeout.
   */
  readonly maxInFlightBodyBytesPerSource: number;
  /**
   * Of maxInFlightBodyBytes, what only small requests (body plus reply at most 1 MiB) may use. 8 MiB: a few hundred
   * ordinary pod reviews are still buffered while big bodies hold all the rest.
   */
  readonly smallRequestReserveBytes: number;
  /**
   * What all /convert requests together may hold, body and reply (review N-H3, N-M1). 16 MiB: one maximal conversion
   * (7 MiB, webhook/conversion/route.ts) with its reply; conversions happen only when a client reads a kind in a
   * version other than the stored one, so they need not run side by side with admission at full size.
   */
  readonly maxInFlightConversionBytes: number;
  /**
   * A reply not handed to the kernel within this is destroyed with its connection (review N-H2). 10 s: the pod
   * webhook's timeoutSeconds, after which the apiserver no longer waits; a 3 MiB reply takes milliseconds to a
   * reader that reads. Until then the reply's bytes stay charged to the request's share of the budget.
   */
  readonly replyWriteTimeoutMs: number;
  /**
   * Open connections from one source address (review N-H4); more are closed on accept. 256: the apiserver opens one
   * connection per concurrent call, from one address per apiserver (or the node's, through kube-proxy), and its
   * concurrency is bounded by its in-flight seats (600 by default, of which API Priority and Fairness gives pod writes
   * the workload levels, a few hundred at most, spread over the webhook's replicas), so it does not reach 256 on one
   * replica; raise it when several apiservers reach the webhook through one address (a shared proxy). One source
   * then holds at most a quarter of maxConnections, and when the server is full a newcomer from a smaller source
   * takes the slot of an idle connection of the largest (webhook/connection-limits.ts).
   */
  readonly maxConnectionsPerSource: number;
}

export const WEBHOOK_SERVER_DEFAULTS: WebhookServerLimits = Object.freeze({
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  connectionTimeoutMs: 30_000,
  keepAliveTimeoutMs: 60_000,
  maxConnections: 1000,
  maxInFlightBodyBytes: 64 * MIB,
  maxInFlightBodyBytesPerSource: 16 * MIB,
  smallRequestReserveBytes: 8 * MIB,
  maxInFlightConversionBytes: 16 * MIB,
  replyWriteTimeoutMs: 10_000,
  maxConnectionsPerSource: 256,
});

const sec = (ms: number) => ms / 1000;

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
  // Unset: /metrics is served on the health port only. Set (upstream's manager uses 8080): also on its own listener.
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  METRICS_BIND_ADDRESS: Type.Optional(Type.String({ minLength: 1 })),
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
  // The admission server's limits and shutdown (WebhookServerLimits above says why each default).
  WEBHOOK_REQUEST_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: sec(WEBHOOK_SERVER_DEFAULTS.requestTimeoutMs) }),
  WEBHOOK_HEADERS_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: sec(WEBHOOK_SERVER_DEFAULTS.headersTimeoutMs) }),
  WEBHOOK_CONNECTION_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: sec(WEBHOOK_SERVER_DEFAULTS.connectionTimeoutMs) }),
  WEBHOOK_KEEPALIVE_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: sec(WEBHOOK_SERVER_DEFAULTS.keepAliveTimeoutMs) }),
  WEBHOOK_MAX_CONNECTIONS: Type.Integer({ minimum: 1, default: WEBHOOK_SERVER_DEFAULTS.maxConnections }),
  // At least one maximal review (7 MiB, webhook/admission/route.ts) must fit, or large objects could never be admitted.
  WEBHOOK_MAX_INFLIGHT_BODY_MIB: Type.Integer({ minimum: 7, default: WEBHOOK_SERVER_DEFAULTS.maxInFlightBodyBytes / MIB }),
  // At least one maximal review with its largest reply (7 + 3 MiB) per source, one maximal conversion with its reply;
  // each share is capped at the total (loadConfig), so a smaller WEBHOOK_MAX_INFLIGHT_BODY_MIB needs no other change.
  WEBHOOK_MAX_INFLIGHT_BODY_MIB_PER_SOURCE: Type.Integer({ minimum: 10, default: WEBHOOK_SERVER_DEFAULTS.maxInFlightBodyBytesPerSource / MIB }),
  WEBHOOK_SMALL_REQUEST_RESERVE_MIB: Type.Integer({ minimum: 0, default: WEBHOOK_SERVER_DEFAULTS.smallRequestReserveBytes / MIB }),
  WEBHOOK_MAX_INFLIGHT_CONVERSION_MIB: Type.Integer({ minimum: 14, default: WEBHOOK_SERVER_DEFAULTS.maxInFlightConversionBytes / MIB }),
  WEBHOOK_REPLY_WRITE_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: sec(WEBHOOK_SERVER_DEFAULTS.replyWriteTimeoutMs) }),
  WEBHOOK_MAX_CONNECTIONS_PER_SOURCE: Type.Integer({ minimum: 1, default: WEBHOOK_SERVER_DEFAULTS.maxConnectionsPerSource }),
  WEBHOOK_DRAIN_SECONDS: Type.Integer({ minimum: 0, maximum: 300, default: 5 }),
  WEBHOOK_SHUTDOWN_GRACE_SECONDS: Type.Integer({ minimum: 1, maximum: 300, default: 10 }),
  // The admission worker pool (webhook/pool/): unset = from the container's CPU limit, at least 2.
  WEBHOOK_WORKERS: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
  ADMISSION_DEADLINE_MS: Type.Integer({ minimum: 50, maximum: 9_000, default: 2_000 }),
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

/** A listener that serves only /metrics (shared/metrics-server.ts), besides the health port's /metrics. */
export interface MetricsListenConfig {
  /** undefined unless METRICS_PORT is set; host is METRICS_BIND_ADDRESS, else BIND_ADDRESS. */
  readonly metricsListen: { readonly host: string; readonly port: number } | undefined;
}

function metricsListen(e: ParsedEnv, healthPort: number, problems: string[]): MetricsListenConfig {
  if (e.METRICS_PORT === undefined) {
    if (e.METRICS_BIND_ADDRESS !== undefined) problems.push('METRICS_BIND_ADDRESS: needs METRICS_PORT');
    return { metricsListen: undefined };
  }
  if (e.METRICS_PORT === healthPort) problems.push(`METRICS_PORT: ${e.METRICS_PORT} is the health port; unset it to serve /metrics there only`);
  return { metricsListen: Object.freeze({ host: e.METRICS_BIND_ADDRESS ?? e.BIND_ADDRESS, port: e.METRICS_PORT }) };
}

export interface Config extends ApiHealthConfig, MetricsListenConfig {
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
  /** Upstream gates FEATURE_GATES names that kruise-ts has no feature for (`Name=value`), for one warning at start. */
  readonly unimplementedGates: readonly string[];
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
  readonly webhookServer: WebhookServerLimits;
  /**
   * After SIGTERM the webhook reports not-ready but keeps serving this long (WEBHOOK_DRAIN_SECONDS, 5 s): endpoint
   * removal and kube-proxy take a few seconds to stop routing to a terminating pod.
   */
  readonly drainMs: number;
  /** After the drain, in-flight reviews get this long to finish before the process exits anyway (10 s). */
  readonly shutdownGraceMs: number;
  /** Admission worker threads (WEBHOOK_WORKERS); undefined = from the container's CPU limit (webhook/pool/size.ts). */
  readonly webhookWorkers: number | undefined;
  /**
   * One review's time in its worker, the apiserver calls it waits on excluded (ADMISSION_DEADLINE_MS, 2 s): past it
   * the review is refused with code 500 and the worker replaced. Well under the pod webhook's 10 s timeout.
   */
  readonly admissionDeadlineMs: number;
}

export type { FeatureGate } from './feature-gates.js';

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
function parseEnv(env: Record<string, string | undefined>): { e: ParsedEnv; featureGates: Record<FeatureGate, boolean>; unimplementedGates: readonly string[]; problems: string[] } {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(Env.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const converted = Value.Default(Env, Value.Convert(Env, picked));
  const problems = [...Value.Errors(Env, converted)].map((e) => `${e.path.slice(1) || '(root)'}: ${e.message} (got ${JSON.stringify(e.value)})`);
  const e = converted as ParsedEnv;
  const gates = parseFeatureGates(typeof e.FEATURE_GATES === 'string' ? e.FEATURE_GATES : '');
  problems.push(...gates.problems);
  return { e, featureGates: gates.gates, unimplementedGates: Object.freeze(gates.unimplemented), problems };
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
  const { e, featureGates, unimplementedGates, problems } = parseEnv(env);
  // Node refuses a headers timeout above the request timeout.
  if (e.WEBHOOK_HEADERS_TIMEOUT_SECONDS > e.WEBHOOK_REQUEST_TIMEOUT_SECONDS) problems.push(`WEBHOOK_HEADERS_TIMEOUT_SECONDS (${e.WEBHOOK_HEADERS_TIMEOUT_SECONDS}) must not exceed WEBHOOK_REQUEST_TIMEOUT_SECONDS (${e.WEBHOOK_REQUEST_TIMEOUT_SECONDS})`);
  const health = apiHealth(e, problems);
  const metrics = metricsListen(e, e.HEALTH_PORT ?? 8000, problems);
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze({
    ...health,
    ...metrics,
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
    unimplementedGates,
    podName: e.POD_NAME,
    leaderElect: e.LEADER_ELECT,
    leaderElectionId: e.LEADER_ELECTION_ID,
    controllers: Object.freeze(e.CONTROLLERS.split(',').map((c) => c.trim()).filter(Boolean)),
    daemonConfigNamespace: e.KRUISE_DAEMON_CONFIG_NS,
    nodeImageCreationDelayMs: e.NODEIMAGE_CREATION_DELAY_SECONDS * 1000,
    defaultTtlSecondsForAlwaysNodeImage: e.DEFAULT_TTLSECONDS_FOR_ALWAYS_NODEIMAGE,
    webhookServer: Object.freeze({
      requestTimeoutMs: e.WEBHOOK_REQUEST_TIMEOUT_SECONDS * 1000,
      headersTimeoutMs: e.WEBHOOK_HEADERS_TIMEOUT_SECONDS * 1000,
      connectionTimeoutMs: e.WEBHOOK_CONNECTION_TIMEOUT_SECONDS * 1000,
      keepAliveTimeoutMs: e.WEBHOOK_KEEPALIVE_TIMEOUT_SECONDS * 1000,
      maxConnections: e.WEBHOOK_MAX_CONNECTIONS,
      maxInFlightBodyBytes: e.WEBHOOK_MAX_INFLIGHT_BODY_MIB * MIB,
      // The shares are at most the whole (a smaller total keeps its meaning), and the reserve leaves big requests room
      // for one maximal review with its reply (10 MiB; the total is at least 7).
      maxInFlightBodyBytesPerSource: Math.min(e.WEBHOOK_MAX_INFLIGHT_BODY_MIB_PER_SOURCE, e.WEBHOOK_MAX_INFLIGHT_BODY_MIB) * MIB,
      smallRequestReserveBytes: Math.max(0, Math.min(e.WEBHOOK_SMALL_REQUEST_RESERVE_MIB, e.WEBHOOK_MAX_INFLIGHT_BODY_MIB - 10)) * MIB,
      maxInFlightConversionBytes: Math.min(e.WEBHOOK_MAX_INFLIGHT_CONVERSION_MIB, e.WEBHOOK_MAX_INFLIGHT_BODY_MIB) * MIB,
      replyWriteTimeoutMs: e.WEBHOOK_REPLY_WRITE_TIMEOUT_SECONDS * 1000,
      maxConnectionsPerSource: Math.min(e.WEBHOOK_MAX_CONNECTIONS_PER_SOURCE, e.WEBHOOK_MAX_CONNECTIONS),
    }),
    drainMs: e.WEBHOOK_DRAIN_SECONDS * 1000,
    shutdownGraceMs: e.WEBHOOK_SHUTDOWN_GRACE_SECONDS * 1000,
    webhookWorkers: e.WEBHOOK_WORKERS,
    admissionDeadlineMs: e.ADMISSION_DEADLINE_MS,
  });
}

/** The node daemon's settings (kruise-daemon's env and flags, spec/daemon-and-controllers.md §1.1–1.2). */
export interface DaemonConfig extends ApiHealthConfig, MetricsListenConfig {
  /** The node this daemon serves; the DaemonSet sets it from `spec.nodeName`. */
  readonly nodeName: string;
  /** The daemon's own namespace (`kruise-daemon` in manifests/); pull Secrets come from `daemonConfigNamespace`. */
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
  readonly unimplementedGates: readonly string[];
}

export const DAEMON_HEALTH_PORT = 10221;

export function loadDaemonConfig(env: Record<string, string | undefined>): DaemonConfig {
  const { e, featureGates, unimplementedGates, problems } = parseEnv(env);
  // Upstream's startup error, word for word.
  if (!e.NODE_NAME) problems.push('NODE_NAME: not found NODE_NAME in environments');
  if (e.CRI_ENDPOINT && e.CRI_SOCKET_FILE) problems.push('CRI_ENDPOINT and CRI_SOCKET_FILE are both set; set one (an absolute socket, or a file under /hostvarrun)');
  const total = e.WEBHOOK_MAX_INFLIGHT_BODY_MIB;
  if (e.WEBHOOK_MAX_INFLIGHT_BODY_MIB_PER_SOURCE > total) problems.push(`WEBHOOK_MAX_INFLIGHT_BODY_MIB_PER_SOURCE (${e.WEBHOOK_MAX_INFLIGHT_BODY_MIB_PER_SOURCE}) must not exceed WEBHOOK_MAX_INFLIGHT_BODY_MIB (${total})`);
  if (e.WEBHOOK_MAX_INFLIGHT_CONVERSION_MIB > total) problems.push(`WEBHOOK_MAX_INFLIGHT_CONVERSION_MIB (${e.WEBHOOK_MAX_INFLIGHT_CONVERSION_MIB}) must not exceed WEBHOOK_MAX_INFLIGHT_BODY_MIB (${total})`);
  // Big requests must still fit one maximal review beside the reserve.
  if (total - e.WEBHOOK_SMALL_REQUEST_RESERVE_MIB < 10) problems.push(`WEBHOOK_SMALL_REQUEST_RESERVE_MIB (${e.WEBHOOK_SMALL_REQUEST_RESERVE_MIB}) must leave at least 10 MiB of WEBHOOK_MAX_INFLIGHT_BODY_MIB (${total}) to big requests`);
  if (e.WEBHOOK_MAX_CONNECTIONS_PER_SOURCE > e.WEBHOOK_MAX_CONNECTIONS) problems.push(`WEBHOOK_MAX_CONNECTIONS_PER_SOURCE (${e.WEBHOOK_MAX_CONNECTIONS_PER_SOURCE}) must not exceed WEBHOOK_MAX_CONNECTIONS (${e.WEBHOOK_MAX_CONNECTIONS})`);
  const health = apiHealth(e, problems);
  const metrics = metricsListen(e, e.HEALTH_PORT ?? DAEMON_HEALTH_PORT, problems);
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze({
    ...health,
    ...metrics,
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
    unimplementedGates,
  });
}
