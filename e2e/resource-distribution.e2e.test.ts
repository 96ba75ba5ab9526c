// ResourceDistribution on the real apiserver: the controller process copies the seed example's ConfigMap into its
// target namespaces, follows source edits, namespace changes and hand edits, survives a restart, leaves objects it
// does not own alone, and the real kube-controller-manager's garbage collector removes copies with their RD. The
// harness turns ResourceDistributionGate on (e2e/harness/cluster/feature-gates.ts); the shipped default is off.
// Beyond upstream (review H5, M1): the author's write access is checked, kube-* and kruise namespaces are never
// written, and a planted Secret value reaches no log of any process of the run.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';
import { needsPods, scale } from './harness/release.js';
import { upstreamHash } from './harness/rd-hash.js';

const s = stack();
const example = join(import.meta.dirname, 'cluster/examples/12-resourcedistribution.yaml');
const namespaces = ['ns-1', 'ns-2', 'ns-3', 'ns-4', 'ns-5', 'ns-6'];

interface Obj { metadata: { uid: string; annotations?: Record<string, string>; labels?: Record<string, string>; ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }[] }; data?: Record<string, string>; type?: string }
interface Rd { metadata: { uid: string; generation: number }; status?: { desired?: number; succeeded?: number; failed?: number; observedGeneration?: number;
  conditions?: { type: string; status: string; reason?: string; failedNamespace?: string[] }[] } }

const find = <T>(args: string[]): T | undefined => {
  const r = kubectl(['get', ...args, '-o', 'json']);
  if (r.code !== 0 && /NotFound|not found/.test(r.stderr)) return undefined;
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as T;
};
const copyIn = (ns: string) => find<Obj>(['configmap', 'game-demo', '-n', ns]);
const rd = (name = 'sample') => find<Rd>(['resourcedistribution', name])!;
const condition = (r: Rd, type: string) => r.status?.conditions?.find((c) => c.type === type);
const patchRd = (patch: object, name = 'sample') => kubectlOk(['patch', 'resourcedistribution', name, '--type=merge', '-p', JSON.stringify(patch)]);
const withCopies = (want: string[]) => () => namespaces.every((ns) => (copyIn(ns) !== undefined) === want.includes(ns));
/** A value no process of the run has any other reason to print: it must appear in none of their logs. */
const planted = `rd-planted-${process.pid}-${Date.now().toString(36)}`;
const plantedB64 = Buffer.from(planted).toString('base64');
const rdOf = (name: string, spec: object) => JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name }, spec });
/** Every file under the run's log directory (control plane, manager, controllers, node). */
const logFiles = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? logFiles(p) : [p];
});

describe('ResourceDistribution', { skip: typeof s === 'string' ? s : false }, () => {
  before(() => {
    kubectlOk(['create', 'namespace', 'ns-1']);
    for (const ns of ['ns-2', 'ns-3']) {
      kubectlOk(['create', 'namespace', ns]);
      kubectlOk(['label', 'namespace', ns, 'group=test']);
    }
    kubectlOk(['create', 'namespace', 'ns-5']);
    kubectlOk(['create', 'namespace', 'ns-6']);
  });
  after(() => {
    for (const name of ['sample', 'rd-secret', 'rd-author-ok']) kubectl(['delete', 'resourcedistribution', name, '--ignore-not-found', '--wait=false']);
    kubectl(['delete', 'clusterrole,clusterrolebinding', 'e2e-rd-author', '--ignore-not-found']);
    kubectl(['delete', 'namespace', ...namespaces, '--ignore-not-found', '--wait=false']);
  });

  it('the seed example: copies in ns-1 and the selected ns-2 with the three annotations and a controller reference; ns-4 reported missing', async () => {
    kubectlOk(['apply', '-f', example]);
    await eventually('copies in ns-1 and ns-2 only', withCopies(['ns-1', 'ns-2']), 60_000);
    const r = await eventually('status', () => { const x = rd(); return x.status?.observedGeneration === 1 && x.status.succeeded === 2 ? x : undefined; }, 30_000);
    assert.deepEqual([r.status?.desired, r.status?.succeeded, r.status?.failed], [3, 2, 1]);
    const missing = condition(r, 'NamespaceNotExists');
    assert.deepEqual([missing?.status, missing?.reason, missing?.failedNamespace], ['True', 'namespace not found or is terminating', ['ns-4']]);
    assert.deepEqual(r.status?.conditions?.map((c) => `${c.type}=${c.status}`), ['GetResourceFailed=False', 'CreateResourceFailed=False', 'UpdateResourceFailed=False',
      'DeleteResourceFailed=False', 'ConflictOccurred=False', 'NamespaceNotExists=True']);

    const copy = copyIn('ns-1')!;
    assert.equal(copy.data?.player_initial_lives, '3');
    assert.match(copy.data?.['game.properties'] ?? '', /enemy.types=aliens,monsters/);
    const a = copy.metadata.annotations ?? {};
    assert.equal(a['kruise.io/resourcedistribution.resource.from'], 'sample');
    assert.equal(a['kruise.io/resourcedistribution.resource.hashcode'], upstreamHash(), 'SHA-256 of the raw spec.resource bytes the apiserver serves');
    assert.ok(!Number.isNaN(Date.parse(a['kruise.io/resourcedistribution.resource.distributed.timestamp'] ?? '')), 'a distributed.timestamp');
    assert.deepEqual(copy.metadata.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'sample', uid: r.metadata.uid, controller: true, blockOwnerDeletion: true }]);

    const table = kubectlOk(['get', 'distributor', 'sample']).trim().split('\n').map((l) => l.trim().split(/\s+/));
    assert.deepEqual(table, [['NAME', 'TOTAL', 'SUCCEED', 'FAILED'], ['sample', '3', '2', '1']]);
  });

  it('a new namespace in includedNamespaces and a namespace relabelled into the selector are covered; one relabelled out loses its copy', async () => {
    kubectlOk(['create', 'namespace', 'ns-4']);
    kubectlOk(['label', 'namespace', 'ns-5', 'group=test']);
    kubectlOk(['label', 'namespace', 'ns-2', 'group-']);
    await eventually('copies in ns-1, ns-4, ns-5', withCopies(['ns-1', 'ns-4', 'ns-5']), 60_000);
    await eventually('status 3/3', () => rd().status?.succeeded === 3 && condition(rd(), 'NamespaceNotExists')?.status === 'False', 30_000);
  });

  it('a source edit reaches every copy, with a new hashcode', async () => {
    const before = copyIn('ns-1')!.metadata.annotations?.['kruise.io/resourcedistribution.resource.hashcode'];
    patchRd({ spec: { resource: { data: { player_initial_lives: '5', 'markup.html': '<b>&amp;</b>' } } } });
    await eventually('all copies edited', () => ['ns-1', 'ns-4', 'ns-5'].every((ns) => copyIn(ns)?.data?.player_initial_lives === '5'), 60_000);
    const hash = copyIn('ns-4')!.metadata.annotations?.['kruise.io/resourcedistribution.resource.hashcode'];
    assert.notEqual(hash, before);
    assert.equal(hash, upstreamHash(), 'the hash still matches the raw bytes, HTML characters included');
    assert.equal(copyIn('ns-5')!.data?.['markup.html'], '<b>&amp;</b>');
  });

  it('a copy edited by hand is restored, and one deleted by hand comes back', async () => {
    kubectlOk(['patch', 'configmap', 'game-demo', '-n', 'ns-4', '--type=merge', '-p', JSON.stringify({ data: { player_initial_lives: '99' } })]);
    kubectlOk(['delete', 'configmap', 'game-demo', '-n', 'ns-5']);
    await eventually('ns-4 restored', () => copyIn('ns-4')?.data?.player_initial_lives === '5', 60_000);
    await eventually('ns-5 recreated', () => copyIn('ns-5')?.data?.player_initial_lives === '5', 60_000);
  });

  it('a controller restart in the middle: changes made while it is down are applied by its successor', { skip: needsPods(s) }, async () => {
    await scale('controller-manager', 0);
    patchRd({ spec: { resource: { data: { player_initial_lives: '6' } } } });
    kubectlOk(['delete', 'configmap', 'game-demo', '-n', 'ns-1']);
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal(copyIn('ns-1'), undefined, 'nobody restored it while the controller was down');
    assert.equal(copyIn('ns-4')?.data?.player_initial_lives, '5');
    await scale('controller-manager', 2);
    await eventually('converged after restart', () => ['ns-1', 'ns-4', 'ns-5'].every((ns) => copyIn(ns)?.data?.player_initial_lives === '6'), 90_000);
  });

  it('narrowing the targets removes the copies it no longer targets', async () => {
    patchRd({ spec: { targets: { includedNamespaces: { list: [{ name: 'ns-4' }] } } } });
    await eventually('ns-1 copy removed', withCopies(['ns-4', 'ns-5']), 60_000);
    await eventually('status 2/2', () => rd().status?.desired === 2 && rd().status?.succeeded === 2, 30_000);
  });

  it('a same-named ConfigMap it does not own is left untouched and reported as a conflict; once deleted, the copy takes its place', async () => {
    kubectlOk(['create', 'configmap', 'game-demo', '-n', 'ns-6', '--from-literal=owner=someone-else']);
    const theirs = copyIn('ns-6')!;
    patchRd({ spec: { targets: { includedNamespaces: { list: [{ name: 'ns-4' }, { name: 'ns-6' }] } } } });
    const r = await eventually('conflict reported', () => { const x = rd(); return condition(x, 'ConflictOccurred')?.status === 'True' ? x : undefined; }, 60_000);
    assert.deepEqual(condition(r, 'ConflictOccurred')?.failedNamespace, ['ns-6']);
    assert.equal(condition(r, 'ConflictOccurred')?.reason, 'conflict with existing resources because of the same namespace, group, version, kind and name');
    assert.deepEqual([r.status?.desired, r.status?.succeeded, r.status?.failed], [3, 2, 1]);
    const still = copyIn('ns-6')!;
    assert.deepEqual([still.metadata.uid, still.data, still.metadata.annotations, still.metadata.ownerReferences],
      [theirs.metadata.uid, { owner: 'someone-else' }, theirs.metadata.annotations, theirs.metadata.ownerReferences]);

    kubectlOk(['delete', 'configmap', 'game-demo', '-n', 'ns-6']);
    await eventually('copy in ns-6', () => copyIn('ns-6')?.metadata.annotations?.['kruise.io/resourcedistribution.resource.from'] === 'sample', 60_000);
    await eventually('conflict cleared', () => condition(rd(), 'ConflictOccurred')?.status === 'False', 30_000);
  });

  it('deleting the ResourceDistribution removes its copies (garbage collection)', async () => {
    kubectlOk(['delete', 'resourcedistribution', 'sample']);
    await eventually('copies gone', withCopies([]), 90_000);
  });

  it('a Secret with allNamespaces: in every namespace but kube-*, kruise\'s and the excluded one; removed with its RD', async () => {
    const secret = { resource: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'rd-e2e-secret' }, type: 'Opaque', stringData: { password: planted } },
      targets: { allNamespaces: true, excludedNamespaces: { list: [{ name: 'ns-3' }] } } };
    kubectlOk(['create', '-f', '-'], rdOf('rd-secret', secret));
    const nsList = getJson<{ items: { metadata: { name: string; labels?: Record<string, string> } }[] }>(['namespaces']).items;
    const skipped = ['ns-3', ...nsList.filter((n) => n.metadata.name.startsWith('kube-') || n.metadata.labels?.['control-plane'] === 'openkruise').map((n) => n.metadata.name)];
    assert.ok(skipped.includes('kube-node-lease') && skipped.includes('kruise-system') && skipped.includes('kruise-daemon-config'), skipped.join(' '));
    // Namespaces other suites deleted may still be terminating: the controller reports those, it cannot copy into them.
    const active = () => kubectlOk(['get', 'namespaces', '-o', 'jsonpath={range .items[?(@.status.phase=="Active")]}{.metadata.name} {end}']).split(' ').filter(Boolean);
    const holders = () => kubectlOk(['get', 'secrets', '-A', '--field-selector', 'metadata.name=rd-e2e-secret', '-o', 'jsonpath={.items[*].metadata.namespace}']).split(' ').filter(Boolean);
    await eventually('a copy in every active namespace but the skipped ones', () => {
      const have = new Set(holders());
      return active().filter((n) => !skipped.includes(n)).every((n) => have.has(n));
    }, 90_000);
    assert.deepEqual(holders().filter((n) => skipped.includes(n)), [], 'none in kube-*, kruise\'s or the excluded namespace');
    assert.ok(holders().includes('default'));
    const copy = find<Obj>(['secret', 'rd-e2e-secret', '-n', 'ns-1'])!;
    assert.deepEqual([copy.type, copy.data], ['Opaque', { password: plantedB64 }]);
    kubectlOk(['delete', 'resourcedistribution', 'rd-secret']);
    await eventually('every copy removed', () => holders().length === 0, 120_000);
  });

  it('the author must be allowed to write the resource where it is distributed (SubjectAccessReview, review H5)', async () => {
    // rd-author may create RDs, and write Secrets in ns-1 only.
    kubectlOk(['create', 'clusterrole', 'e2e-rd-author', '--verb=create,get,delete', '--resource=resourcedistributions.apps.kruise.io']);
    kubectlOk(['create', 'clusterrolebinding', 'e2e-rd-author', '--clusterrole=e2e-rd-author', '--user=rd-author']);
    kubectlOk(['create', 'rolebinding', 'e2e-rd-author', '-n', 'ns-1', '--clusterrole=edit', '--user=rd-author']);
    const resource = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'rd-author-secret' }, stringData: { token: planted } };
    const as = ['--as=rd-author', 'create', '-f', '-'];
    const outside = kubectl(as, rdOf('rd-author-bad', { resource, targets: { includedNamespaces: { list: [{ name: 'ns-1' }, { name: 'ns-5' }] } } }));
    assert.notEqual(outside.code, 0);
    assert.match(outside.stderr, /denied the request: user "rd-author" may not create secrets in namespace "ns-5"/);
    const everywhere = kubectl(as, rdOf('rd-author-bad', { resource, targets: { allNamespaces: true } }));
    assert.match(everywhere.stderr, /user "rd-author" may not create secrets in every namespace/);
    for (const r of [outside, everywhere]) assert.ok(!r.stderr.includes(planted) && !r.stderr.includes(plantedB64));
    kubectlOk(as, rdOf('rd-author-ok', { resource, targets: { includedNamespaces: { list: [{ name: 'ns-1' }] } } }));
    await eventually('copy in ns-1', () => find<Obj>(['secret', 'rd-author-secret', '-n', 'ns-1']), 60_000);
    kubectlOk(['delete', 'resourcedistribution', 'rd-author-ok']);
    kubectlOk(['delete', 'rolebinding', 'e2e-rd-author', '-n', 'ns-1']);
  });

  const bad: { name: string; spec: object; message: RegExp; schema?: true }[] = [
    { name: 'a Pod as the resource', spec: { resource: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, data: { p: plantedB64 }, stringData: { t: planted } }, targets: {} },
      message: /unknown or unsupported resource GroupKind, only support \[Secret ConfigMap\]/ },
    { name: 'a namespace both included and excluded', spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
      targets: { includedNamespaces: { list: [{ name: 'ns-1' }] }, excludedNamespaces: { list: [{ name: 'ns-1' }] } } },
      message: /ambiguous targets because namespace \[ns-1\] is in both IncludedNamespaces.List and ExcludedNamespaces.List/ },
    { name: 'an invalid namespace name', spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, targets: { includedNamespaces: { list: [{ name: 'Not_A_Namespace' }] } } },
      message: /spec\.targets\.includedNamespaces/ },
    { name: 'kube-system listed by name', spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, targets: { includedNamespaces: { list: [{ name: 'kube-system' }] } } },
      message: /namespace "kube-system" is never a distribution target: kube-\* namespaces belong to the cluster/ },
    { name: 'a kruise namespace listed by name', spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration' } }, targets: { includedNamespaces: { list: [{ name: 'kruise-system' }] } } },
      message: /namespace "kruise-system" is never a distribution target: namespaces labelled control-plane=openkruise belong to kruise/ },
    { name: 'a service-account token', spec: { resource: { apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name: 't', annotations: { 'kubernetes.io/service-account.name': 'default' } }, stringData: { t: planted } },
      targets: { includedNamespaces: { list: [{ name: 'ns-1' }] } } }, message: /spec\.resource\.type: Forbidden: a Secret of type kubernetes\.io\/service-account-token cannot be distributed/ },
    { name: 'finalizers and ownerReferences in the resource', spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', finalizers: ['e2e/block'],
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: '00000000-0000-0000-0000-000000000000' }] } }, targets: {} },
      message: /spec\.resource\.metadata\.finalizers: Forbidden: finalizers cannot be distributed, spec\.resource\.metadata\.ownerReferences: Forbidden/ },
    // The CRD's embedded-resource schema refuses this before the webhook (whose message would be "Object 'Kind' is
    // missing in spec.resource"); either way the denial must not echo the data.
    { name: 'a Secret without a kind, without echoing its data', spec: { resource: { apiVersion: 'v1', metadata: { name: 's' }, data: { p: plantedB64 }, stringData: { t: planted } }, targets: {} },
      message: /spec\.resource\.kind: Required value/, schema: true },
  ];
  for (const tc of bad) {
    it(`the ${tc.schema ? 'apiserver' : 'validating webhook'} refuses ${tc.name} with a clear reason`, () => {
      const r = kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'rd-bad' }, spec: tc.spec }));
      assert.notEqual(r.code, 0);
      if (!tc.schema) assert.match(r.stderr, /admission webhook "vresourcedistribution\.kb\.io" denied the request/);
      assert.match(r.stderr, tc.message);
      assert.ok(!r.stderr.includes(planted) && !r.stderr.includes(plantedB64), 'no Secret content in the denial');
    });
  }

  it('the validating webhook refuses renaming the resource on update', () => {
    const ok = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'rd-rename' },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before' } }, targets: {} } };
    kubectlOk(['create', '-f', '-'], JSON.stringify(ok));
    try {
      const r = kubectl(['patch', 'resourcedistribution', 'rd-rename', '--type=merge', '-p', JSON.stringify({ spec: { resource: { metadata: { name: 'after' } } } })]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /resource apiVersion, kind, and name are immutable/);
    } finally {
      kubectl(['delete', 'resourcedistribution', 'rd-rename', '--wait=false']);
    }
  });

  it('the planted Secret value is in no log of any process of the run (review M1)', () => {
    if (typeof s === 'string') return;
    // The host processes' logs, and the kubelet's logs of the pods on the real node (the Helm-installed managers').
    const podLogs = s.realNode?.podLogsDir;
    const files = [...logFiles(s.logDir), ...(podLogs && existsSync(podLogs) ? logFiles(podLogs) : [])];
    const webhook = (f: string) => f.endsWith('kruise-manager.log') || f.includes('/kruise-system_kruise-webhook-');
    assert.ok(files.some(webhook) && files.some((f) => f.includes('kruise-controller')), files.join(' '));
    const hits = files.filter((f) => { const text = readFileSync(f, 'latin1'); return text.includes(planted) || text.includes(plantedB64); });
    assert.deepEqual(hits, []);
  });
});
