// Process configuration, parsed once from the environment, validated with TypeBox, frozen and passed down (style
// P10), one file per deployable: config/manager.ts (webhook and controllers), config/webhook-server.ts (the admission
// server's limits), config/daemon.ts, over config/env.ts (parsing and the settings every process has).
export { ConfigError, configOrExit, type ApiHealthConfig, type MetricsListenConfig } from './config/env.js';
export { loadConfig, parseRenewBefore, type CertWriter, type Config } from './config/manager.js';
export { WEBHOOK_SERVER_DEFAULTS, type WebhookServerLimits } from './config/webhook-server.js';
export { DAEMON_HEALTH_PORT, loadDaemonConfig, type DaemonConfig } from './config/daemon.js';
export type { FeatureGate } from './feature-gates.js';
