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
  HEALTH_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 8000 }),
  KUBECONFIG: Type.Optional(Type.String({ minLength: 1 })),
  LOG_LEVEL: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)), { default: 'info' }),
  FEATURE_GATES: Type.String({ default: '' }),
  POD_NAME: Type.Optional(Type.String({ minLength: 1 })),
  LEADER_ELECT: Type.Boolean({ default: true }),
  LEADER_ELECTION_ID: Type.String({ minLength: 1, default: 'kruise-manager' }),
  CONTROLLERS: Type.String({ default: '' }),
});

export type CertWriter = 'secret' | 'fs' | 'external';

export interface Config {
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
  readonly logLevel: Static<typeof Env>['LOG_LEVEL'];
  readonly featureGates: Readonly<Record<FeatureGate, boolean>>;
  /** This replica's pod name (downward API); the leader-election identity is derived from it. */
  readonly podName: string | undefined;
  /** Off only for a single-replica manager (tests, benchmarks): controllers then run without a Lease. */
  readonly leaderElect: boolean;
  readonly leaderElectionId: string;
  /** Controllers to run, by name; empty = all. */
  readonly controllers: readonly string[];
}

/** Gates consulted by the admission handlers; defaults follow the Kruise Helm chart (spec §5). */
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

/** Reads only the keys it knows; throws ConfigError listing every problem at once. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(Env.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const converted = Value.Default(Env, Value.Convert(Env, picked));
  const problems = [...Value.Errors(Env, converted)].map((e) => `${e.path.slice(1) || '(root)'}: ${e.message} (got ${JSON.stringify(e.value)})`);
  const e = converted as Static<typeof Env>;
  const featureGates = parseGates(typeof e.FEATURE_GATES === 'string' ? e.FEATURE_GATES : '', problems);
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze({
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
    healthPort: e.HEALTH_PORT,
    kubeconfig: e.KUBECONFIG,
    logLevel: e.LOG_LEVEL,
    featureGates: Object.freeze(featureGates),
    podName: e.POD_NAME,
    leaderElect: e.LEADER_ELECT,
    leaderElectionId: e.LEADER_ELECTION_ID,
    controllers: Object.freeze(e.CONTROLLERS.split(',').map((c) => c.trim()).filter(Boolean)),
  });
}
