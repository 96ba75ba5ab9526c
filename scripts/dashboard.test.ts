// CI check of the Grafana dashboard the chart ships (charts/kruise-ts/dashboards/kruise-ts.json): every PromQL
// expression is well formed, and every metric it queries is served by a running webhook, controller manager or
// daemon. "Running" means their registries built by the same functions their main.ts uses, after real work:
// reviews served through buildApp, keys reconciled through runReconciler, leadership reported, daemon metrics created.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { FakeClock } from '../shared/clock.js';
import { leaderMetrics } from '../shared/kube/leader-metrics.js';
import { silentLogger } from '../shared/log.js';
import { WorkQueue } from '../shared/reconcile/queue.js';
import { runReconciler } from '../shared/reconcile/runner.js';
import { allowed, denied } from '../webhook/admission/response.js';
import { buildApp } from '../webhook/app.js';
import { createMetrics } from '../webhook/metrics.js';
import { review } from '../webhook/test-helpers.js';
import { createDaemonMetrics } from '../daemon/metrics.js';
import { createManagerRegistry } from '../controller/metrics.js';

const DASHBOARD = new URL('../charts/kruise-ts/dashboards/kruise-ts.json', import.meta.url);

interface Panel { title?: string; panels?: Panel[]; targets?: { expr?: string }[] }

function expressions(panels: Panel[]): { panel: string; expr: string }[] {
  return panels.flatMap((p) => [
    ...(p.targets ?? []).flatMap((t) => (t.expr ? [{ panel: p.title ?? '', expr: t.expr }] : [])),
    ...expressions(p.panels ?? []),
  ]);
}

// Words that are PromQL syntax, not metric names, when not followed by '('.
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'and', 'or', 'unless', 'inf', 'nan']);

/**
 * The metric names a PromQL expression selects. Throws on what this check cannot vouch for: unbalanced brackets or
 * quotes. Grafana's $variables are replaced by a duration first, as Grafana does before querying.
 */
function metricNames(expr: string): string[] {
  const src = expr.replace(/\$__\w+/g, '1m');
  let plain = '';
  const stack: string[] = [];
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unterminated string in ${expr}`);
      i = end;
      plain += ' ';
      continue;
    }
    if (c === '(' || c === '[' || c === '{') stack.push(c);
    if (c in pairs && stack.pop() !== pairs[c]) throw new Error(`unbalanced '${c}' in ${expr}`);
    // Label matchers and range selectors hold label names and durations, not metrics.
    if (stack.at(-1) === '{' || stack.at(-1) === '[' || c === '}' || c === ']') { plain += ' '; continue; }
    plain += c;
  }
  if (stack.length) throw new Error(`unclosed '${stack.at(-1)}' in ${expr}`);
  // Grouping clauses list label names.
  const noGrouping = plain.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [...noGrouping.matchAll(/(?<![\w.])([a-zA-Z_:][\w:]*)(?!\w)(\s*\()?/g)]
    .filter((m) => !m[2] && !KEYWORDS.has(m[1]!.toLowerCase()))
    .map((m) => m[1]!);
  return [...new Set(names)];
}

/** /metrics text of a webhook, a controller manager and a daemon that have done some work. */
async function runningMetricsText(): Promise<string> {
  const webhook = createMetrics({ defaultMetrics: true });
  const app = buildApp({ log: silentLogger(), metrics: webhook, routes: [
    { path: '/mutate-pod', name: 'mutate-pod', handler: () => allowed() },
    { path: '/validate-sidecarset', name: 'validate-sidecarset', handler: () => denied('bad') },
  ] });
  for (const url of ['/mutate-pod', '/validate-sidecarset']) {
    assert.equal((await app.inject({ method: 'POST', url, payload: review() })).statusCode, 200);
  }
  await app.close();

  const manager = createManagerRegistry();
  const clock = new FakeClock();
  const stop = new AbortController();
  const queue = new WorkQueue({ clock });
  const done = runReconciler({ name: 'sidecarset', reconcile: async () => ({}), queue, workers: 2, log: silentLogger(), metrics: manager, signal: stop.signal, clock });
  queue.add('ns/a');
  await clock.advance(0);
  leaderMetrics(manager).on('kruise-manager');
  stop.abort();
  await done;

  const daemon = createDaemonMetrics({ defaultMetrics: true });
  return (await Promise.all([webhook.registry.metrics(), manager.metrics(), daemon.registry.metrics()])).join('\n');
}

/** Names with no sample line in `text` (a histogram is matched by its _bucket/_sum/_count series). */
function missing(names: Iterable<string>, text: string): string[] {
  const sampled = new Set(text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(/[{ ]/, 1)[0]));
  return [...names].filter((n) => !sampled.has(n));
}

describe('the Grafana dashboard', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[]; templating: { list: { name: string; type: string }[] } };
  const exprs = expressions(dashboard.panels);

  it('takes its Prometheus data source from the DS_PROMETHEUS variable, in every panel and query', () => {
    assert.ok(dashboard.templating.list.some((v) => v.name === 'DS_PROMETHEUS' && v.type === 'datasource'));
    const sources = [...JSON.stringify(dashboard.panels).matchAll(/"uid":\s*"([^"]*)"/g)].map((m) => m[1]);
    assert.ok(sources.length > exprs.length);
    assert.deepEqual(new Set(sources), new Set(['${DS_PROMETHEUS}']));
  });

  it('queries only metrics that a running webhook, controller manager or daemon serves', async () => {
    assert.ok(exprs.length >= 15, `found ${exprs.length} queries`);
    const names = new Set(exprs.flatMap(({ panel, expr }) => {
      const n = metricNames(expr);
      assert.ok(n.length > 0, `${panel}: no metric in ${expr}`);
      return n;
    }));
    assert.deepEqual(missing(names, await runningMetricsText()), []);
  });

  it('every component (webhook, controller manager, daemon) serves the event-loop delay series the dashboard shows', async () => {
    const eventLoop = ['nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_max_seconds', 'nodejs_eventloop_lag_p99_seconds', 'kruise_eventloop_delay_seconds_bucket', 'kruise_eventloop_delay_seconds_count'];
    const texts = { webhook: await createMetrics({ defaultMetrics: true }).registry.metrics(), manager: await createManagerRegistry().metrics(), daemon: await createDaemonMetrics({ defaultMetrics: true }).registry.metrics() };
    for (const [component, text] of Object.entries(texts)) assert.deepEqual(missing(eventLoop, text), [], component);
    assert.ok(exprs.some(({ expr }) => expr.includes('nodejs_eventloop_lag_max_seconds')) && exprs.some(({ expr }) => expr.includes('kruise_eventloop_delay_seconds_bucket')));
  });

  it('the check itself: parses selectors, ranges, grouping and functions, and reports an unknown metric', async () => {
    assert.deepEqual(
      metricNames('histogram_quantile(0.9, sum by (le, webhook) (rate(a_bucket{result="x{y}"}[$__rate_interval]))) / on(pod) group_left b - time()'),
      ['a_bucket', 'b']);
    assert.throws(() => metricNames('sum(rate(a[5m])'), /unclosed/);
    assert.deepEqual(missing(['controller_runtime_reconcile_total', 'no_such_metric_total'], await runningMetricsText()), ['no_such_metric_total']);
  });
});
