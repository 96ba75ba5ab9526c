// The webhook watches its two configurations (certs/config-watch.ts, issue 24 class 7): a `helm upgrade` that adds a
// webhook, or a configuration re-applied without its caBundles, gets them back within seconds, not at the next
// one-minute resync, and admission through every webhook succeeds from then on. Each step ends in the harness's own
// release (this tree's chart, the local values file), so later files see the stack as `up` left it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { getJson, kubectl, kubectlOk, stack } from './harness/kube.js';
import { caBundlesSet, podAdmitted } from './harness/node/helm-install.js';
import { needsPods } from './harness/release.js';

const s = stack();
const repo = join(import.meta.dirname, '..');
const CONFIGS = ['mutatingwebhookconfiguration/kruise-mutating-webhook-configuration', 'validatingwebhookconfiguration/kruise-validating-webhook-configuration'];
/** Well under the one-minute resync: before the watch, a caBundle came back after up to 60 s (30 s on average). */
const BACK_WITHIN_MS = 5_000;

interface Conf { metadata: Record<string, unknown>; webhooks?: { name: string; clientConfig: { caBundle?: string } }[] }

/** A SidecarSet dry-run create: mutated by msidecarset, validated by vsidecarset (both must be trusted). */
const sidecarSetAdmitted = () => kubectl(['create', '--dry-run=server', '-f', '-'], JSON.stringify({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'e2e-config-watch' },
  spec: { selector: { matchLabels: { app: 'e2e-config-watch' } }, containers: [{ name: 'sidecar1', image: 'busybox', command: ['sleep', '999d'] }] },
}));

/** Milliseconds from now until every webhook has a caBundle (polled every 100 ms), or undefined after `limitMs`. */
async function msUntilCaBundles(limitMs: number): Promise<number | undefined> {
  const t0 = Date.now();
  while (Date.now() - t0 < limitMs) {
    if (caBundlesSet(process.env.KUBECONFIG!)) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

/** After the caBundles are back, admission through the pod, SidecarSet and other webhooks never fails. */
function assertAdmissionsSucceed(what: string): void {
  for (let i = 0; i < 10; i++) {
    assert.ok(podAdmitted(process.env.KUBECONFIG!), `${what}: pod admission ${i}`);
    const r = sidecarSetAdmitted();
    assert.equal(r.code, 0, `${what}: SidecarSet admission ${i}: ${r.stderr}`);
  }
}

describe('caBundles come back at once after the webhook configurations change', { skip: needsPods(s), timeout: 600_000 }, () => {
  if (needsPods(s) || typeof s === 'string') return;
  const st = s;
  const tmp = mkdtempSync(join(tmpdir(), 'kts-config-watch-'));
  const helm = (chart: string) => {
    const r = spawnSync(st.helm!, ['upgrade', st.release!.name, chart, '-f', st.release!.valuesFile], { encoding: 'utf8', cwd: repo, timeout: 300_000, maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`helm upgrade ${chart} failed: ${r.stderr || r.error?.message}`);
  };
  after(() => {
    // Whatever happened, leave the harness's release as it was.
    try { helm('charts/kruise-ts'); } catch { /* reported by the test */ }
    rmSync(tmp, { recursive: true, force: true });
  });

  it('a helm upgrade that adds a webhook (vsidecarset.kb.io): its caBundle within seconds, then no failed admission', async () => {
    // The chart without vsidecarset.kb.io: the configuration a previous release would have had.
    const without = join(tmp, 'kruise-ts');
    cpSync(join(repo, 'charts/kruise-ts'), without, { recursive: true });
    const file = join(without, 'templates/webhooks.yaml');
    const text = readFileSync(file, 'utf8');
    const start = text.indexOf('  - name: vsidecarset.kb.io');
    const end = text.indexOf('  - name: ', start + 1);
    assert.ok(start > 0 && end > start, 'vsidecarset.kb.io found in templates/webhooks.yaml');
    writeFileSync(file, text.slice(0, start) + text.slice(end));
    helm(without);
    const names = () => (getJson<Conf>(['validatingwebhookconfiguration', 'kruise-validating-webhook-configuration']).webhooks ?? []).map((w) => w.name);
    assert.ok(!names().includes('vsidecarset.kb.io'), 'the upgrade removed the webhook');
    assert.notEqual(await msUntilCaBundles(30_000), undefined, 'the remaining webhooks keep their caBundles');

    helm('charts/kruise-ts');
    const ms = await msUntilCaBundles(BACK_WITHIN_MS);
    assert.ok(names().includes('vsidecarset.kb.io'), 'the upgrade added the webhook');
    process.stdout.write(`# caBundle of the added webhook set ${ms} ms after helm upgrade returned\n`);
    assert.notEqual(ms, undefined, `every webhook has its caBundle within ${BACK_WITHIN_MS} ms of the upgrade`);
    assertAdmissionsSucceed('after the upgrade');
  });

  it('both configurations re-applied without caBundles (kubectl replace): back within seconds, then no failed admission', async () => {
    for (const c of CONFIGS) {
      const conf = getJson<Conf>([c]);
      for (const w of conf.webhooks ?? []) delete w.clientConfig.caBundle;
      kubectlOk(['replace', '-f', '-'], JSON.stringify(conf));
    }
    const ms = await msUntilCaBundles(BACK_WITHIN_MS);
    process.stdout.write(`# caBundles set again ${ms} ms after both configurations were replaced\n`);
    assert.notEqual(ms, undefined, `every webhook has its caBundle within ${BACK_WITHIN_MS} ms`);
    assertAdmissionsSucceed('after the replace');
  });
});
