import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Registry } from 'prom-client';
import { startMetricsServer } from './metrics-server.js';

describe('startMetricsServer', () => {
  it('serves the registry on GET /metrics and nothing else', async () => {
    const registry = new Registry();
    new Counter({ name: 'example_total', help: 'x', registers: [registry] }).inc(3);
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0, registry });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const metrics = await fetch(`${base}/metrics`);
      assert.equal(metrics.status, 200);
      assert.match(await metrics.text(), /^example_total 3$/m);
      assert.deepEqual([(await fetch(`${base}/healthz`)).status, (await fetch(`${base}/metrics`, { method: 'POST' })).status], [404, 405]);
    } finally {
      await server.close();
    }
  });
});
