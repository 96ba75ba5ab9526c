// Upgrading the install keeps injected pods untouched: no restart, same UID, same SidecarSet hashes. Two paths users
// take, each ending in the harness's own release (this tree's chart, the local values file), so later files see the
// stack as `up` left it:
// - the previous chart → this one: `helm upgrade` to the chart of the first commit that had it (image from HEAD),
//   pods injected, then `helm upgrade` to this tree's chart (the first chart carries this tree's CRDs: HEAD's image
//   needs SidecarSet v1beta1, and a stored version cannot leave a CRD);
// - kustomize → Helm: the release forgotten (its Secrets deleted, Helm's labels and annotations removed: what a
//   `kubectl apply -k manifests/` install looks like), `kubectl apply -k` of manifests/ pinned to the real node,
//   pods injected, then `helm upgrade --install --take-ownership --force-conflicts` with the local values (Helm 4
//   applies server-side: without --force-conflicts, the fields kubectl's client-side apply owns and the values
//   change, e.g. the daemon's port, are conflicts).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { StackState } from './harness/cluster/state.js';
import { eventually, getJson, kubectl, kubectlOk, stack, untilInjected } from './harness/kube.js';
import { releaseServing } from './harness/node/helm-install.js';
import { REAL_NODE_LABEL, REAL_NODE_TAINT } from './harness/node/index.js';
import { needsPods, rolledOut } from './harness/release.js';

const s = stack();
const repo = join(import.meta.dirname, '..');
const NS = 'e2e-helm-upgrade';
const HASH = 'kruise.io/sidecarset-hash';
const HASH_NO_IMAGE = 'kruise.io/sidecarset-hash-without-image';

interface PodJson {
  metadata: { name: string; uid: string; annotations?: Record<string, string> };
  status: { phase?: string; containerStatuses?: { name: string; ready: boolean; restartCount: number }[] };
}
/** What must not change across the upgrade. */
const fingerprint = (p: PodJson) => ({
  uid: p.metadata.uid, hash: p.metadata.annotations?.[HASH], hashWithoutImage: p.metadata.annotations?.[HASH_NO_IMAGE],
  restarts: (p.status.containerStatuses ?? []).map((c) => `${c.name}:${c.restartCount}`).sort(),
});

const helm = (st: StackState, args: string[]) => {
  // `helm status -o json` carries the rendered manifest, CRDs included (~1 MB): past spawnSync's 1 MiB default.
  const r = spawnSync(st.helm!, args, { encoding: 'utf8', cwd: repo, timeout: 300_000, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`helm ${args.join(' ')} failed: ${r.stderr || r.error?.message || `signal ${r.signal}`}`);
  return r.stdout;
};

/** The chart as the first commit that had it (undefined in a clone without that history, e.g. a shallow one). */
function firstChart(dir: string): { commit: string; chart: string } | undefined {
  const commit = spawnSync('git', ['log', '--diff-filter=A', '--format=%H', '--', 'charts/kruise-ts/Chart.yaml'], { cwd: repo, encoding: 'utf8' })
    .stdout?.trim().split('\n').pop();
  if (!commit) return undefined;
  const tar = spawnSync('git', ['archive', '--format=tar', commit, 'charts/kruise-ts'], { cwd: repo, maxBuffer: 64 << 20 });
  if (tar.status !== 0) return undefined;
  execFileSync('tar', ['-x', '-C', dir], { input: tar.stdout });
  // With this tree's CRDs (as rendered into manifests/crd): the image is HEAD's, which reads SidecarSets as v1beta1,
  // and the apiserver refuses to drop v1beta1, the stored version, from the CRD (spec/openkruise-v1.9.md §1). That
  // chart's crds.yaml writes each file of files/crds as it is.
  const crds = join(dir, 'charts/kruise-ts/files/crds');
  for (const f of readdirSync(crds)) rmSync(join(crds, f));
  for (const f of readdirSync(join(repo, 'manifests/crd')).filter((n) => n.endsWith('.yaml') && n !== 'kustomization.yaml')) copyFileSync(join(repo, 'manifests/crd', f), join(crds, f));
  return { commit: commit.slice(0, 7), chart: join(dir, 'charts/kruise-ts') };
}

/**
 * What HEAD's image reads that the first chart's RBAC never granted (the kinds and the PodDisruptionBudgets added
 * since), bound to every ServiceAccount of kruise-system and kruise-daemon while that chart is installed: the test runs HEAD's image
 * under the old chart, which a real upgrade never does (old image with old chart, then new with new), and without these
 * the new informers could not sync and the old chart's pods would never become ready.
 */
const NEW_RIGHTS = 'e2e-helm-upgrade-new-rights';
const newRights = () => [
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: NEW_RIGHTS }, rules: [
    { apiGroups: ['policy.kruise.io'], resources: ['podunavailablebudgets', 'podunavailablebudgets/status'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
    { apiGroups: ['apps.kruise.io'], resources: ['workloadspreads', 'workloadspreads/status', 'podprobemarkers', 'podprobemarkers/status', 'nodepodprobes', 'nodepodprobes/status'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
    { apiGroups: ['policy'], resources: ['poddisruptionbudgets', 'poddisruptionbudgets/status'], verbs: ['get', 'list', 'watch', 'update'] },
    { apiGroups: ['apps'], resources: ['deployments', 'replicasets', 'statefulsets'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'list', 'watch'] },
  ] },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: NEW_RIGHTS },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: NEW_RIGHTS },
    subjects: ['kruise-system', 'kruise-daemon'].map((ns) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: `system:serviceaccounts:${ns}` })) },
];

/** A SidecarSet and `n` pods on the real node it injects; resolves with their fingerprints once all are Running. */
async function injectPods(set: string, n: number, node: string): Promise<Map<string, ReturnType<typeof fingerprint>>> {
  kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: set },
    spec: { selector: { matchLabels: { app: set } }, namespace: NS, updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
      containers: [{ name: 'sidecar1', image: 'busybox', command: ['sleep', '999d'] }] } }));
  await untilInjected(NS, { app: set }, 'sidecar1', 'busybox', 60_000);
  for (let i = 0; i < n; i++) {
    kubectlOk(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `${set}-${i}`, namespace: NS, labels: { app: set } },
      spec: { nodeName: node, terminationGracePeriodSeconds: 1, containers: [{ name: 'app', image: 'nginx:1.7.9' }] } }));
  }
  const pods = await eventually(`${n} ${set} pods Running with sidecar1`, () => {
    const l = getJson<{ items: PodJson[] }>(['pods', '-n', NS, '-l', `app=${set}`]).items;
    return l.length === n && l.every((p) => p.status.phase === 'Running' && p.status.containerStatuses?.length === 2 && p.status.containerStatuses.every((c) => c.ready)) && l;
  }, 180_000);
  for (const p of pods) assert.ok(p.metadata.annotations?.[HASH], `${p.metadata.name} carries ${HASH}`);
  return new Map(pods.map((p) => [p.metadata.name, fingerprint(p)]));
}

/**
 * The upgraded install has served and reconciled since the upgrade: both Deployments rolled out, a new pod of `set`
 * admitted (webhook) and counted in the SidecarSet's status (controller). Only then do the old pods' fingerprints
 * say something.
 */
async function settled(set: string, n: number, node: string): Promise<void> {
  await rolledOut('webhook');
  await rolledOut('controller-manager');
  await eventually('a pod admitted through the Service', () => releaseServing(process.env.KUBECONFIG!), 120_000);
  kubectlOk(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `${set}-after`, namespace: NS, labels: { app: set } },
    spec: { nodeName: node, terminationGracePeriodSeconds: 1, containers: [{ name: 'app', image: 'nginx:1.7.9' }] } }));
  await eventually(`SidecarSet ${set} counts ${n + 1} pods, all updated`, () => {
    const st = getJson<{ status?: { matchedPods?: number; updatedPods?: number } }>(['sidecarset', set]).status;
    return st?.matchedPods === n + 1 && st.updatedPods === n + 1;
  }, 180_000);
}

function assertUntouched(set: string, before: Map<string, ReturnType<typeof fingerprint>>): void {
  for (const [name, want] of before) {
    const p = getJson<PodJson>(['pod', '-n', NS, name]);
    assert.deepEqual(fingerprint(p), want, `${set}: ${name}`);
    for (const r of want.restarts) assert.match(r, /:0$/, `${name}: no restart`);
  }
}

describe('helm upgrade keeps injected pods untouched', { skip: needsPods(s), timeout: 1_200_000 }, () => {
  if (needsPods(s) || typeof s === 'string') return;
  const st = s;
  const node = st.realNode!.name;
  const tmp = mkdtempSync(join(tmpdir(), 'kts-helm-upgrade-'));
  const values = st.release!.valuesFile;

  before(() => { kubectlOk(['create', 'namespace', NS]); });
  after(() => {
    kubectl(['delete', 'sidecarset', 'from-chart', 'from-kustomize', '--ignore-not-found']);
    kubectl(['delete', 'clusterrolebinding,clusterrole', NEW_RIGHTS, '--ignore-not-found']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('the previous chart (first commit with charts/kruise-ts) → this tree\'s chart', async (t) => {
    const prev = firstChart(tmp);
    if (!prev) return t.skip('no git history with the first chart (shallow clone?)');
    for (const o of newRights()) kubectlOk(['apply', '-f', '-'], JSON.stringify(o));
    helm(st, ['upgrade', st.release!.name, prev.chart, '-f', values]);
    assert.match(helm(st, ['get', 'metadata', st.release!.name]), /CHART: kruise-ts/);
    await rolledOut('webhook');
    await rolledOut('controller-manager');
    const before = await injectPods('from-chart', 2, node);
    const setHash = getJson<{ metadata: { annotations?: Record<string, string> } }>(['sidecarset', 'from-chart']).metadata.annotations?.[HASH];

    helm(st, ['upgrade', st.release!.name, 'charts/kruise-ts', '-f', values]);
    kubectlOk(['delete', 'clusterrolebinding,clusterrole', NEW_RIGHTS]);
    await settled('from-chart', 2, node);
    assertUntouched('from-chart', before);
    assert.equal(getJson<{ metadata: { annotations?: Record<string, string> } }>(['sidecarset', 'from-chart']).metadata.annotations?.[HASH], setHash);
  });

  it('kustomize (kubectl apply -k manifests/) → Helm (helm upgrade --install --take-ownership --force-conflicts)', async () => {
    // What a kustomize install is: the same objects, with no Helm release and no Helm labels or annotations.
    kubectlOk(['delete', 'secret', '-n', 'default', '-l', `owner=helm,name=${st.release!.name}`]);
    const overlay = join(tmp, 'kustomize');
    mkdirSync(overlay, { recursive: true });
    const pin = { nodeSelector: { [REAL_NODE_LABEL]: 'true' }, tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }] };
    const deployment = (name: string) => ({ patch: JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'kruise-system' }, spec: { template: { spec: pin } } }) });
    // The node's containerd is not under /run/containerd (the same patch a user makes with daemon.socketLocation).
    const containerdDir = st.realNode!.containerd!.dir;
    writeFileSync(join(overlay, 'kustomization.yaml'), JSON.stringify({
      apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: [relative(overlay, join(repo, 'manifests'))],
      patches: [deployment('kruise-webhook'), deployment('kruise-controller-manager'), { patch: JSON.stringify({ apiVersion: 'apps/v1', kind: 'DaemonSet',
        metadata: { name: 'kruise-daemon', namespace: 'kruise-daemon' }, spec: { template: { spec: { volumes: [{ name: 'runtime-socket', hostPath: { path: containerdDir, type: 'Directory' } }] } } } }) }],
    }));
    const rendered = join(tmp, 'kustomize.yaml');
    writeFileSync(rendered, kubectlOk(['kustomize', overlay]));
    kubectlOk(['apply', '-f', rendered]);
    kubectlOk(['annotate', '-f', rendered, 'meta.helm.sh/release-name-', 'meta.helm.sh/release-namespace-']);
    kubectlOk(['label', '-f', rendered, 'app.kubernetes.io/managed-by-']);
    assert.equal(spawnSync(st.helm!, ['status', st.release!.name], { encoding: 'utf8' }).status === 0, false, 'no Helm release any more');
    await rolledOut('webhook');
    await rolledOut('controller-manager');
    await eventually('a pod admitted through the Service', () => releaseServing(process.env.KUBECONFIG!), 120_000);
    const before = await injectPods('from-kustomize', 2, node);

    helm(st, ['upgrade', '--install', '--take-ownership', '--force-conflicts', st.release!.name, 'charts/kruise-ts', '-f', values]);
    await settled('from-kustomize', 2, node);
    assertUntouched('from-kustomize', before);
    const status = JSON.parse(helm(st, ['status', st.release!.name, '-o', 'json'])) as { info: { status: string } };
    assert.equal(status.info.status, 'deployed');
    const dep = getJson<{ metadata: { annotations?: Record<string, string>; labels?: Record<string, string> } }>(['deployment', '-n', 'kruise-system', 'kruise-webhook']);
    assert.equal(dep.metadata.annotations?.['meta.helm.sh/release-name'], st.release!.name, 'Helm owns the objects now');
  });
});
