import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig, loadDaemonConfig, parseRenewBefore, WEBHOOK_SERVER_DEFAULTS } from './config.js';

const DAY = 24 * 3600 * 1000;

test('an empty environment yields the upstream defaults, frozen', () => {
  const c = loadConfig({});
  assert.equal(c.namespace, 'kruise-system');
  assert.equal(c.secretName, 'kruise-webhook-certs');
  assert.equal(c.serviceName, 'kruise-webhook-service');
  assert.equal(c.webhookPort, 9876);
  assert.equal(c.certDir, '/tmp/kruise-webhook-certs');
  assert.equal(c.certWriter, 'secret');
  assert.equal(c.renewBeforeMs, 180 * DAY);
  assert.equal(c.bindAddress, '127.0.0.1');
  assert.equal(c.healthPort, 8000);
  assert.equal(c.featureGates.ResourceDistributionGate, false);
  assert.ok(Object.isFrozen(c));
});

test('WEBHOOK_HOST makes fs the default writer, and an explicit writer wins', () => {
  assert.equal(loadConfig({ WEBHOOK_HOST: '10.0.0.7' }).certWriter, 'fs');
  assert.equal(loadConfig({ WEBHOOK_HOST: '10.0.0.7', WEBHOOK_CERT_WRITER: 'secret' }).certWriter, 'secret');
  assert.equal(loadConfig({ WEBHOOK_CERT_WRITER: 'external' }).certWriter, 'external');
});

test('numbers and gates are parsed from strings', () => {
  const c = loadConfig({ WEBHOOK_PORT: '443', HEALTH_PORT: '8081', FEATURE_GATES: 'ResourceDistributionGate=true, KruiseDaemon=false' });
  assert.equal(c.webhookPort, 443);
  assert.equal(c.healthPort, 8081);
  assert.equal(c.featureGates.ResourceDistributionGate, true);
  assert.equal(c.featureGates.KruiseDaemon, false);
});

test('every problem is listed at once', () => {
  try {
    loadConfig({ WEBHOOK_PORT: 'x', CERTS_RENEW_BEFORE: '3w', WEBHOOK_CERT_WRITER: 'disk', FEATURE_GATES: 'Nope=true' });
    assert.fail('expected ConfigError');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    const text = err.problems.join('\n');
    for (const name of ['WEBHOOK_PORT', 'CERTS_RENEW_BEFORE', 'WEBHOOK_CERT_WRITER', 'FEATURE_GATES']) assert.match(text, new RegExp(name));
  }
});

const durations: { name: string; input: string; days: number }[] = [
  { name: 'days are days', input: '180d', days: 180 },
  { name: 'a month is 30 days, as upstream', input: '6m', days: 180 },
  { name: 'a year is 365 days', input: '1y', days: 365 },
];
for (const tc of durations) test(`renew-before: ${tc.name}`, () => assert.equal(parseRenewBefore(tc.input), tc.days * DAY));

test('daemon: NODE_NAME is required, with upstream\'s message', () => {
  assert.throws(() => loadDaemonConfig({}), (err: unknown) => err instanceof ConfigError && err.problems.some((p) => p.includes('not found NODE_NAME in environments')));
});

test('daemon: defaults are upstream\'s (port 10221, unbounded pulls, discovery) on loopback', () => {
  const c = loadDaemonConfig({ NODE_NAME: 'node-a' });
  assert.deepEqual(
    [c.nodeName, c.namespace, c.healthPort, c.bindAddress, c.maxConcurrentPulls, c.criEndpoint, c.criSocketFile],
    ['node-a', 'kruise-system', 10221, '127.0.0.1', 0, undefined, undefined],
  );
  assert.ok(Object.isFrozen(c));
});

test('daemon: a pull cap, an endpoint and a port are parsed; a negative cap means unbounded', () => {
  const c = loadDaemonConfig({ NODE_NAME: 'n', MAX_WORKERS_FOR_PULL_IMAGE: '2', CRI_ENDPOINT: 'unix:///run/containerd/containerd.sock', HEALTH_PORT: '9000' });
  assert.deepEqual([c.maxConcurrentPulls, c.criEndpoint, c.healthPort], [2, 'unix:///run/containerd/containerd.sock', 9000]);
  assert.equal(loadDaemonConfig({ NODE_NAME: 'n', MAX_WORKERS_FOR_PULL_IMAGE: '-5' }).maxConcurrentPulls, 0);
});

test('daemon: an endpoint and a socket file together, or a non-numeric cap, are refused together', () => {
  try {
    loadDaemonConfig({ NODE_NAME: 'n', CRI_ENDPOINT: '/a.sock', CRI_SOCKET_FILE: 'containerd.sock', MAX_WORKERS_FOR_PULL_IMAGE: 'many' });
    assert.fail('expected ConfigError');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    assert.equal(err.problems.length, 2, err.message);
  }
});

test('NodeImage / ImagePullJob settings: upstream defaults, overridable, bounded', () => {
  const d = loadConfig({});
  assert.equal(d.daemonConfigNamespace, 'kruise-daemon-config');
  assert.equal(d.nodeImageCreationDelayMs, 30_000);
  assert.equal(d.defaultTtlSecondsForAlwaysNodeImage, 300);
  const c = loadConfig({ KRUISE_DAEMON_CONFIG_NS: 'pull-secrets', NODEIMAGE_CREATION_DELAY_SECONDS: '0', DEFAULT_TTLSECONDS_FOR_ALWAYS_NODEIMAGE: '60' });
  assert.equal(c.daemonConfigNamespace, 'pull-secrets');
  assert.equal(c.nodeImageCreationDelayMs, 0);
  assert.equal(c.defaultTtlSecondsForAlwaysNodeImage, 60);
  assert.throws(() => loadConfig({ DEFAULT_TTLSECONDS_FOR_ALWAYS_NODEIMAGE: String(32 * 24 * 3600) }), ConfigError);
  assert.throws(() => loadConfig({ NODEIMAGE_CREATION_DELAY_SECONDS: '-1' }), ConfigError);
});

test('webhook server limits: defaults in ms and bytes, env in seconds and MiB', () => {
  assert.deepEqual(loadConfig({}).webhookServer, WEBHOOK_SERVER_DEFAULTS);
  assert.deepEqual(
    [loadConfig({}).drainMs, loadConfig({}).shutdownGraceMs],
    [5000, 10_000],
  );
  const c = loadConfig({
    WEBHOOK_REQUEST_TIMEOUT_SECONDS: '20', WEBHOOK_HEADERS_TIMEOUT_SECONDS: '5', WEBHOOK_CONNECTION_TIMEOUT_SECONDS: '25',
    WEBHOOK_KEEPALIVE_TIMEOUT_SECONDS: '45', WEBHOOK_MAX_CONNECTIONS: '200', WEBHOOK_MAX_INFLIGHT_BODY_MIB: '32',
    WEBHOOK_DRAIN_SECONDS: '0', WEBHOOK_SHUTDOWN_GRACE_SECONDS: '3',
  });
  assert.deepEqual(c.webhookServer, {
    requestTimeoutMs: 20_000, headersTimeoutMs: 5000, connectionTimeoutMs: 25_000, keepAliveTimeoutMs: 45_000, maxConnections: 200, maxInFlightBodyBytes: 32 * 1024 * 1024,
    maxInFlightBodyBytesPerSource: 16 * 1024 * 1024, smallRequestReserveBytes: 8 * 1024 * 1024, maxInFlightConversionBytes: 16 * 1024 * 1024,
    replyWriteTimeoutMs: 10_000, maxConnectionsPerSource: 200,
  });
  assert.deepEqual([c.drainMs, c.shutdownGraceMs], [0, 3000]);
  assert.ok(Object.isFrozen(c.webhookServer));
});

test('webhook server limits: the shares of the budget and of the connections are never more than the whole', () => {
  const w = loadConfig({ WEBHOOK_MAX_INFLIGHT_BODY_MIB: '12', WEBHOOK_MAX_INFLIGHT_BODY_MIB_PER_SOURCE: '20', WEBHOOK_MAX_INFLIGHT_CONVERSION_MIB: '30', WEBHOOK_MAX_CONNECTIONS: '50' }).webhookServer;
  const MIB = 1024 * 1024;
  assert.deepEqual(
    [w.maxInFlightBodyBytesPerSource, w.maxInFlightConversionBytes, w.smallRequestReserveBytes, w.maxConnectionsPerSource],
    [12 * MIB, 12 * MIB, 2 * MIB, 50],
  );
  assert.equal(loadConfig({ WEBHOOK_MAX_INFLIGHT_BODY_MIB: '7' }).webhookServer.smallRequestReserveBytes, 0);
  const custom = loadConfig({ WEBHOOK_REPLY_WRITE_TIMEOUT_SECONDS: '3', WEBHOOK_MAX_CONNECTIONS_PER_SOURCE: '64', WEBHOOK_SMALL_REQUEST_RESERVE_MIB: '4' }).webhookServer;
  assert.deepEqual([custom.replyWriteTimeoutMs, custom.maxConnectionsPerSource, custom.smallRequestReserveBytes], [3000, 64, 4 * MIB]);
  assert.throws(() => loadConfig({ WEBHOOK_MAX_INFLIGHT_BODY_MIB_PER_SOURCE: '9' }), (err: unknown) => err instanceof ConfigError && /WEBHOOK_MAX_INFLIGHT_BODY_MIB_PER_SOURCE/.test(err.message));
});

test('webhook server limits: a budget below one maximal review, or headers allowed longer than the request, are refused', () => {
  assert.throws(() => loadConfig({ WEBHOOK_MAX_INFLIGHT_BODY_MIB: '6' }), (err: unknown) => err instanceof ConfigError && /WEBHOOK_MAX_INFLIGHT_BODY_MIB/.test(err.message));
  assert.throws(
    () => loadConfig({ WEBHOOK_REQUEST_TIMEOUT_SECONDS: '5', WEBHOOK_HEADERS_TIMEOUT_SECONDS: '10' }),
    (err: unknown) => err instanceof ConfigError && /WEBHOOK_HEADERS_TIMEOUT_SECONDS \(10\) must not exceed/.test(err.message),
  );
});

test('FEATURE_GATES takes any OpenKruise v1.9 gate (unimplemented ones listed for the start warning) and refuses unknown names', () => {
  const c = loadConfig({ FEATURE_GATES: 'CloneSetShortHash=true,ResourceDistributionGate=true' });
  assert.equal(c.featureGates.ResourceDistributionGate, true);
  assert.deepEqual(c.unimplementedGates, ['CloneSetShortHash=true']);
  assert.deepEqual(loadDaemonConfig({ NODE_NAME: 'n', FEATURE_GATES: 'CloneSetShortHash=true' }).unimplementedGates, ['CloneSetShortHash=true']);
  assert.equal(loadDaemonConfig({ NODE_NAME: 'n', FEATURE_GATES: 'PodProbeMarkerGate=false' }).featureGates.PodProbeMarkerGate, false);
  assert.throws(() => loadConfig({ FEATURE_GATES: 'NoSuchGate=true' }), /unrecognized feature gate: NoSuchGate/);
});

test('API timeouts and cache health: defaults, overrides, and windows that would misread a quiet watch refused', () => {
  const pick = (c: { apiTimeoutMs: number; watchIdleTimeoutMs: number; healthStaleAfterMs: number; livenessStaleAfterMs: number }) =>
    [c.apiTimeoutMs, c.watchIdleTimeoutMs, c.healthStaleAfterMs, c.livenessStaleAfterMs];
  assert.deepEqual(pick(loadConfig({})), [30_000, 180_000, 300_000, 900_000]);
  assert.deepEqual(pick(loadDaemonConfig({ NODE_NAME: 'n' })), [30_000, 180_000, 300_000, 900_000]);
  assert.deepEqual(pick(loadConfig({ KUBE_API_TIMEOUT_SECONDS: '10', WATCH_IDLE_TIMEOUT_SECONDS: '90', HEALTH_STALE_AFTER_SECONDS: '120', HEALTH_LIVENESS_STALE_AFTER_SECONDS: '600' })),
    [10_000, 90_000, 120_000, 600_000]);
  assert.throws(() => loadConfig({ HEALTH_STALE_AFTER_SECONDS: '200' }), (e: unknown) =>
    e instanceof ConfigError && e.problems.length === 1 && /HEALTH_STALE_AFTER_SECONDS: must be more than WATCH_IDLE_TIMEOUT_SECONDS \+ KUBE_API_TIMEOUT_SECONDS/.test(e.problems[0]!));
  assert.throws(() => loadDaemonConfig({ NODE_NAME: 'n', HEALTH_LIVENESS_STALE_AFTER_SECONDS: '250' }), (e: unknown) =>
    e instanceof ConfigError && /HEALTH_LIVENESS_STALE_AFTER_SECONDS: must be at least HEALTH_STALE_AFTER_SECONDS/.test(e.problems.join('\n')));
  assert.throws(() => loadConfig({ KUBE_API_TIMEOUT_SECONDS: 'soon' }), (e: unknown) =>
    e instanceof ConfigError && e.problems.length === 1 && /^KUBE_API_TIMEOUT_SECONDS/.test(e.problems[0]!), 'a refused value is its only problem');
});

test('METRICS_PORT adds a metrics-only listener on METRICS_BIND_ADDRESS (else BIND_ADDRESS); unset, there is none', () => {
  assert.equal(loadConfig({}).metricsListen, undefined);
  assert.deepEqual(loadConfig({ METRICS_PORT: '8080', BIND_ADDRESS: '0.0.0.0' }).metricsListen, { host: '0.0.0.0', port: 8080 });
  assert.deepEqual(loadDaemonConfig({ NODE_NAME: 'n', METRICS_PORT: '10223', METRICS_BIND_ADDRESS: '0.0.0.0' }).metricsListen, { host: '0.0.0.0', port: 10223 });
  assert.throws(() => loadConfig({ METRICS_PORT: '8000' }), (err: unknown) => err instanceof ConfigError && err.problems.some((p) => p.startsWith('METRICS_PORT: 8000 is the health port')));
  assert.throws(() => loadDaemonConfig({ NODE_NAME: 'n', METRICS_BIND_ADDRESS: '0.0.0.0' }), (err: unknown) => err instanceof ConfigError && err.problems.includes('METRICS_BIND_ADDRESS: needs METRICS_PORT'));
});
