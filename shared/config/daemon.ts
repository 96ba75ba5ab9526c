// The node daemon's configuration (kruise-daemon's env and flags, spec/daemon-and-controllers.md §1.1–1.2).
import { Type } from '@sinclair/typebox';
import { apiHealth, COMMON_ENV, ConfigError, metricsListen, parseEnv, type ProcessConfig } from './env.js';

const DaemonEnv = Type.Object({
  ...COMMON_ENV,
  NODE_NAME: Type.Optional(Type.String({ minLength: 1 })),
  CRI_ENDPOINT: Type.Optional(Type.String({ minLength: 1 })),
  CRI_SOCKET_FILE: Type.Optional(Type.String({ minLength: 1 })),
  MAX_WORKERS_FOR_PULL_IMAGE: Type.Integer({ default: -1 }),
  KRUISE_DAEMON_CONFIG_NS: Type.String({ minLength: 1, default: 'kruise-daemon-config' }),
});

/** The node daemon's settings (kruise-daemon's env and flags, spec/daemon-and-controllers.md §1.1–1.2). */
export interface DaemonConfig extends ProcessConfig {
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
}

/** Upstream's `--addr=:10221`. */
export const DAEMON_HEALTH_PORT = 10221;

export function loadDaemonConfig(env: Record<string, string | undefined>): DaemonConfig {
  const { e, featureGates, unimplementedGates, problems } = parseEnv(DaemonEnv, env);
  // Upstream's startup error, word for word.
  if (!e.NODE_NAME) problems.push('NODE_NAME: not found NODE_NAME in environments');
  if (e.CRI_ENDPOINT && e.CRI_SOCKET_FILE) problems.push('CRI_ENDPOINT and CRI_SOCKET_FILE are both set; set one (an absolute socket, or a file under /hostvarrun)');
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
