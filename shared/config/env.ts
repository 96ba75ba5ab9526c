// Parsing the environment, shared by every deployable's loader (manager.ts, daemon.ts): TypeBox schemas of the keys
// each one reads, converted and defaulted, every problem collected; the settings every process has (API timeouts and
// cache health, the health and metrics listeners, logging, feature gates). Style P10: read once, frozen, passed down.
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parseFeatureGates, type FeatureGate } from '../feature-gates.js';

/** The keys every deployable reads. */
export const COMMON_ENV = {
  POD_NAMESPACE: Type.String({ minLength: 1, default: 'kruise-system' }),
  BIND_ADDRESS: Type.String({ minLength: 1, default: '127.0.0.1' }),
  // No schema default: the manager listens on 8000, the daemon on upstream's 10221.
  HEALTH_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  // Unset: /metrics is served on the health port only. Set (upstream's manager uses 8080): also on its own listener.
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  METRICS_BIND_ADDRESS: Type.Optional(Type.String({ minLength: 1 })),
  KUBECONFIG: Type.Optional(Type.String({ minLength: 1 })),
  LOG_LEVEL: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)), { default: 'info' }),
  FEATURE_GATES: Type.String({ default: '' }),
  // API timeouts and cache health, for every deployable (kruise-ts's own settings; shared/kube/cache-health.ts).
  KUBE_API_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: 30 }),
  WATCH_IDLE_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, default: 180 }),
  HEALTH_STALE_AFTER_SECONDS: Type.Integer({ minimum: 1, default: 300 }),
  HEALTH_LIVENESS_STALE_AFTER_SECONDS: Type.Integer({ minimum: 1, default: 900 }),
};

type CommonParsed = Static<TObject<typeof COMMON_ENV>>;
export type LogLevel = CommonParsed['LOG_LEVEL'];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
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

export interface Parsed<P extends TProperties> {
  e: Static<TObject<P>>;
  featureGates: Record<FeatureGate, boolean>;
  unimplementedGates: readonly string[];
  problems: string[];
}

/** Validates the keys of `schema` (and only those) and applies its defaults; every problem is collected, none thrown. */
export function parseEnv<P extends TProperties>(schema: TObject<P>, env: Record<string, string | undefined>): Parsed<P> {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const converted = Value.Default(schema, Value.Convert(schema, picked));
  const problems = [...Value.Errors(schema, converted)].map((e) => `${e.path.slice(1) || '(root)'}: ${e.message} (got ${JSON.stringify(e.value)})`);
  const e = converted as Static<TObject<P>>;
  const raw = (e as { FEATURE_GATES?: unknown }).FEATURE_GATES;
  const gates = parseFeatureGates(typeof raw === 'string' ? raw : '');
  problems.push(...gates.problems);
  return { e, featureGates: gates.gates, unimplementedGates: Object.freeze(gates.unimplemented), problems };
}

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

/**
 * A healthy quiet watch re-opens after its idle window plus at most one request timeout; a cache must be allowed to
 * be silent that long before readiness fails, and liveness only fails after readiness.
 */
export function apiHealth(e: CommonParsed, problems: string[]): ApiHealthConfig {
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

/** What every process's configuration has, besides its API timeouts and listeners. */
export interface ProcessConfig extends ApiHealthConfig, MetricsListenConfig {
  readonly bindAddress: string;
  /** `/healthz` (`/readyz`) and `/metrics`. */
  readonly healthPort: number;
  readonly kubeconfig: string | undefined;
  readonly logLevel: LogLevel;
  readonly featureGates: Readonly<Record<FeatureGate, boolean>>;
  /** Upstream gates FEATURE_GATES names that kruise-ts has no feature for (`Name=value`), for one warning at start. */
  readonly unimplementedGates: readonly string[];
}

/** A listener that serves only /metrics (shared/metrics-server.ts), besides the health port's /metrics. */
export interface MetricsListenConfig {
  /** undefined unless METRICS_PORT is set; host is METRICS_BIND_ADDRESS, else BIND_ADDRESS. */
  readonly metricsListen: { readonly host: string; readonly port: number } | undefined;
}

export function metricsListen(e: CommonParsed, healthPort: number, problems: string[]): MetricsListenConfig {
  if (e.METRICS_PORT === undefined) {
    if (e.METRICS_BIND_ADDRESS !== undefined) problems.push('METRICS_BIND_ADDRESS: needs METRICS_PORT');
    return { metricsListen: undefined };
  }
  if (e.METRICS_PORT === healthPort) problems.push(`METRICS_PORT: ${e.METRICS_PORT} is the health port; unset it to serve /metrics there only`);
  return { metricsListen: Object.freeze({ host: e.METRICS_BIND_ADDRESS ?? e.BIND_ADDRESS, port: e.METRICS_PORT }) };
}
