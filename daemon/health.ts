// The daemon's one HTTP listener (upstream `--addr=:10221`): `/healthz` runs every check in order and answers
// 500 `check <name> failed, err: <reason>` on the first failure, else 200 `ok`; `/metrics` serves the registry.
// Plain node:http: two routes do not justify a framework in a process that runs on every node.
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { listen, type Listening } from '../shared/http-listen.js';

export interface HealthCheck {
  /** Upstream names: `nodeImageInformerSynced`, `crrInformerSynced`, … */
  name: string;
  /** Rejects (or throws) with the reason when unhealthy. */
  check(): Promise<void> | void;
}

export type HealthServer = Listening;

export interface HealthServerOptions {
  host: string;
  port: number;
  checks: () => readonly HealthCheck[];
  registry: Registry;
  log: { warn(obj: object, msg: string): void };
}

/** Runs the checks in order; null when all pass, else upstream's failure text. */
export async function runChecks(checks: readonly HealthCheck[]): Promise<string | null> {
  for (const c of checks) {
    try {
      await c.check();
    } catch (err) {
      return `check ${c.name} failed, err: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return null;
}

/** A check that fails with upstream's `not synced` until `isSynced` turns true. */
export const syncedCheck = (name: string, isSynced: () => boolean): HealthCheck => ({
  name,
  check: () => { if (!isSynced()) throw new Error('not synced'); },
});

export function startHealthServer(opts: HealthServerOptions): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (code: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(code, { 'content-type': type });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'method not allowed\n');
    if (path === '/healthz') {
      void runChecks(opts.checks()).then((failure) => {
        if (failure) opts.log.warn({ failure }, 'health check failed');
        reply(failure ? 500 : 200, failure ?? 'ok');
      });
      return;
    }
    if (path === '/metrics') {
      opts.registry.metrics().then((text) => reply(200, text, opts.registry.contentType), (err: Error) => reply(500, `${err.message}\n`));
      return;
    }
    reply(404, 'not found\n');
  });
  return listen(server, opts.port, opts.host);
}
