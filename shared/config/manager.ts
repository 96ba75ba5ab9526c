// The manager's configuration: the webhook and the controllers (both Deployments run this loader; each reads what it
// needs). Env names follow OpenKruise's webhook-controller (spec/webhooks.md §6) so existing Helm values keep their
// meaning.
import { Type } from '@sinclair/typebox';
import { apiHealth, COMMON_ENV, ConfigError, metricsListen, parseEnv, type ProcessConfig } from './env.js';
import { WEBHOOK_ENV, webhookServerLimits, type WebhookServerLimits } from './webhook-server.js';

const ManagerEnv = Type.Object({
  ...COMMON_ENV,
  ...WEBHOOK_ENV,
  SECRET_NAME: Type.String({ minLength: 1, default: 'kruise-webhook-certs' }),
  SERVICE_NAME: Type.String({ minLength: 1, default: 'kruise-webhook-service' }),
  WEBHOOK_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 9876 }),
  WEBHOOK_HOST: Type.Optional(Type.String({ minLength: 1 })),
  WEBHOOK_CERT_DIR: Type.String({ minLength: 1, default: '/tmp/kruise-webhook-certs' }),
  WEBHOOK_CERT_WRITER: Type.Optional(Type.Union([Type.Literal('secret'), Type.Literal('fs'), Type.Literal('external')])),
  CERTS_RENEW_BEFORE: Type.String({ pattern: '^[0-9]+[dmy]$', default: '180d' }),
  POD_NAME: Type.Optional(Type.String({ minLength: 1 })),
  LEADER_ELECT: Type.Boolean({ default: true }),
  LEADER_ELECTION_ID: Type.String({ minLength: 1, default: 'kruise-manager' }),
  CONTROLLERS: Type.String({ default: '' }),
  // NodeImage / ImagePullJob (spec/daemon-and-controllers.md §2.3, §3.2, §3.3); names after upstream's flags/env.
  KRUISE_DAEMON_CONFIG_NS: Type.String({ minLength: 1, default: 'kruise-daemon-config' }),
  NODEIMAGE_CREATION_DELAY_SECONDS: Type.Integer({ minimum: 0, default: 30 }),
  DEFAULT_TTLSECONDS_FOR_ALWAYS_NODEIMAGE: Type.Integer({ minimum: 0, maximum: 31 * 24 * 3600, default: 300 }),
});

export type CertWriter = 'secret' | 'fs' | 'external';

export interface Config extends ProcessConfig {
  readonly namespace: string;
  readonly secretName: string;
  readonly serviceName: string;
  readonly webhookPort: number;
  /** Set ⇒ webhook configurations use `url: https://host:port<path>` instead of a Service reference. */
  readonly webhookHost: string | undefined;
  readonly certDir: string;
  readonly certWriter: CertWriter;
  readonly renewBeforeMs: number;
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

const DAY_MS = 24 * 60 * 60 * 1000;

/** Upstream's `<n>d|m|y` with m = 30 days and y = 365 days. */
export function parseRenewBefore(s: string): number {
  const m = /^([0-9]+)([dmy])$/.exec(s);
  if (!m) throw new Error(`invalid duration ${JSON.stringify(s)}, want <n>d|m|y`);
  const days = { d: 1, m: 30, y: 365 }[m[2] as 'd' | 'm' | 'y'];
  return Number(m[1]) * days * DAY_MS;
}

/** Reads only the keys it knows; throws ConfigError listing every problem at once. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const { e, featureGates, unimplementedGates, problems } = parseEnv(ManagerEnv, env);
  const webhookServer = webhookServerLimits(e, problems);
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
    webhookServer,
    drainMs: e.WEBHOOK_DRAIN_SECONDS * 1000,
    shutdownGraceMs: e.WEBHOOK_SHUTDOWN_GRACE_SECONDS * 1000,
    webhookWorkers: e.WEBHOOK_WORKERS,
    admissionDeadlineMs: e.ADMISSION_DEADLINE_MS,
  });
}
