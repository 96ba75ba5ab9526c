// An optional listener that serves only GET /metrics (METRICS_PORT): Prometheus can scrape it on an address the
// health port does not use, e.g. upstream's :8080 for the manager, or the node's address for the host-network daemon
// while its probes stay on loopback. Plain node:http: one route does not justify a framework.
import { createServer } from 'node:http';
import type { Registry } from 'prom-client';
import { listen, type Listening } from './http-listen.js';

export type MetricsServer = Listening;

export function startMetricsServer(opts: { host: string; port: number; registry: Registry }): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const reply = (code: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(code, { 'content-type': type });
      res.end(body);
    };
    if ((req.url ?? '/').split('?')[0] !== '/metrics') return reply(404, 'not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'method not allowed\n');
    opts.registry.metrics().then((text) => reply(200, text, opts.registry.contentType), (err: Error) => reply(500, `${err.message}\n`));
  });
  // A scrape is one small GET: a client that cannot send its headers in 10 s is not Prometheus.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return listen(server, opts.port, opts.host);
}
