// PodUnavailableBudget on the real apiserver (issue 26 "Done when"; spec/availability-guards.md Part A, §17.3): a PUB
// with maxUnavailable 1 over 3 pods refuses a second `kubectl delete pod` and a second eviction while the first pod is
// unavailable; with PodUnavailableBudgetUpdateGate (on in the e2e stack) it holds a SidecarSet rollout with
// maxUnavailable 3 to one pod at a time; a PUB whose status OpenKruise v1.9.0 wrote is taken over. Pods run on a
// stand-in node where the test plays kubelet (e2e/harness/standin-kubelet-loop.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../shared/api/meta.js';
import type { PodUnavailableBudget } from '../shared/api/pod-unavailable-budget.js';
import { resources } from '../shared/kube/resources.js';
import { kubectl, kubectlOk, stack } from './harness/kube.js';
import { ensureStandinNode } from './harness/kubelet-standin.js';
import { sidecarImage, SidecarSets, waitUntil } from './harness/sidecarset-fixtures.js';
import { keepNodeReady, StandinKubelet, testRest, unavailable } from './harness/standin-kubelet-loop.js';

const s = stack();
const ns = 'e2e-pub';
const node = 'kts-standin-pub';

describe('PodUnavailableBudget', { skip: typeof s === 'string' ? s : false, timeout: 600_000 }, () => {
  const rest = typeof s === 'string' ? undefined! : testRest();
  const sets = typeof s === 'string' ? undefined! : new SidecarSets(rest, ns, node);
  const kubelet = () => new StandinKubelet(rest, ns, node);
  const ofApp = (pods: Pod[], app: string) => pods.filter((p) => p.metadata?.labels?.app === app);

  const createPub = (name: string, app: string) => rest.create<PodUnavailableBudget & { metadata: object }>(resources.podUnavailableBudgets, {
    apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget',
    // Pods without a workload: the expected count comes from the annotation (upstream's way for such pods).
    metadata: { name, namespace: ns, annotations: { 'pub.kruise.io/protect-total-replicas': '3' } },
    spec: { selector: { matchLabels: { app } }, maxUnavailable: 1 },
  });
  const pubStatus = (name: string) => rest.get<PodUnavailableBudget & { metadata: object }>(resources.podUnavailableBudgets, { namespace: ns, name });
  let seen = 'never read';
  const untilStatus = (name: string, want: Partial<NonNullable<PodUnavailableBudget['status']>>, timeoutMs = 60_000) => waitUntil(`${name} status ${JSON.stringify(want)}`, async () => {
    const p = await pubStatus(name);
    seen = JSON.stringify(p.status ?? {});
    return Object.entries(want).every(([k, v]) => JSON.stringify((p.status as Record<string, unknown> | undefined)?.[k]) === JSON.stringify(v)) && p;
  }, timeoutMs).catch((err: Error) => {
    // What the controller saw and said tells a stalled reconcile from a miscount.
    const logs = kubectl(['logs', '-n', 'kruise-system', 'deploy/kruise-controller-manager', '-c', 'controller', '--tail=3000']).stdout
      .split('\n').filter((l) => /podunavailablebudget|"level":(40|50)/.test(l)).slice(-15).join('\n');
    const pods = kubectl(['get', 'pods', '-n', ns, '-o', 'wide']).stdout;
    throw new Error(`${err.message}; last seen ${seen}\npods:\n${pods}\ncontroller:\n${logs}`);
  });
  /** Three pods labelled app=`app`, annotated by /mutate-pod once the webhook's cache has the PUB. */
  async function threeGuardedPods(prefix: string, app: string, pub: string): Promise<Pod[]> {
    // A server-side dry run of a pod create goes through /mutate-pod and stores nothing (a real probe pod would be
    // guarded by the PUB itself, and counted).
    const probe = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `${prefix}-probe`, namespace: ns, labels: { app } }, spec: { containers: [{ name: 'app', image: 'nginx:1.7.9' }] } });
    await waitUntil(`${pub} in the webhook's cache`, async () => {
      const r = kubectl(['create', '--dry-run=server', '-o', 'json', '-f', '-'], probe);
      return r.code === 0 && (JSON.parse(r.stdout) as Pod).metadata?.annotations?.['kruise.io/related-pub'] === pub;
    }, 30_000);
    const pods = await sets.pods(prefix, 3, { app });
    for (const p of pods) assert.equal(p.metadata?.annotations?.['kruise.io/related-pub'], pub, 'the related-pub annotation written at creation');
    await kubelet().until((ps) => ofApp(ps, app).length === 3 && unavailable(ofApp(ps, app)).length === 0, { what: `${prefix} pods started` });
    return pods;
  }

  let stopHeartbeats = () => {};
  before(() => {
    ensureStandinNode(node);
    stopHeartbeats = keepNodeReady(rest, node);
    kubectlOk(['create', 'namespace', ns]);
  });
  after(() => {
    stopHeartbeats();
    if (typeof s === 'string') return;
    // The PUBs go first, or they would refuse the forced deletes of their own pods.
    kubectl(['delete', 'podunavailablebudgets', '--all', '-n', ns, '--wait=true']);
    kubectl(['delete', 'sidecarset', 'pub-roll', '--ignore-not-found', '--wait=false']);
    kubectl(['delete', 'pod', '--all', '-n', ns, '--grace-period=0', '--force', '--wait=false']);
    kubectl(['delete', 'namespace', ns, '--wait=false']);
    kubectl(['delete', 'node', node, '--wait=false']);
  });

  it('maxUnavailable 1 over 3 pods: the first delete is admitted, a second delete and an eviction are refused while the first pod is unavailable', async () => {
    await createPub('pub-del', 'pub-del');
    await threeGuardedPods('del', 'pub-del', 'pub-del');
    // The first test after the install: the controllers start once every cache listed, the PUB CRD's too.
    await untilStatus('pub-del', { unavailableAllowed: 1, currentAvailable: 3, desiredAvailable: 2, totalReplicas: 3 }, 150_000);
    assert.deepEqual(kubectlOk(['get', 'pub', 'pub-del', '-n', ns, '--no-headers']).trim().split(/\s+/), ['pub-del', '1', '3', '2', '3'], 'printer columns Allowed Current Desired Total');

    // The webhook spends from its informer's copy first: give the status the controller just wrote a moment to arrive.
    await new Promise((r) => setTimeout(r, 1_000));
    // No kubelet finishes the deletion on the stand-in node: the pod stays, deleting, i.e. unavailable.
    kubectlOk(['delete', 'pod', 'del-0', '-n', ns, '--wait=false']);
    // Spent by the webhook (del-0 in disruptedPods), or already recounted by the controller (del-0 deleting): none left.
    assert.equal((await pubStatus('pub-del')).status?.unavailableAllowed, 0);

    const second = kubectl(['delete', 'pod', 'del-1', '-n', ns, '--wait=false']);
    assert.notEqual(second.code, 0);
    assert.match(second.stderr, /admission webhook "vpod\.kb\.io" denied the request: podunavailablebudget\.policy\.kruise\.io "pub-del" is forbidden: pub unavailable allowed is negative/);
    const eviction = JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'del-2', namespace: ns } });
    const evicted = kubectl(['create', '--raw', `/api/v1/namespaces/${ns}/pods/del-2/eviction`, '-f', '-'], eviction);
    assert.notEqual(evicted.code, 0);
    assert.match(evicted.stderr, /pub unavailable allowed is negative/);
    // The controller's view agrees once it saw the deletion: two available, none allowed.
    await untilStatus('pub-del', { unavailableAllowed: 0, currentAvailable: 2, desiredAvailable: 2 });
    assert.equal((await rest.get<Pod>(resources.pods, { namespace: ns, name: 'del-1' })).metadata?.deletionTimestamp, undefined, 'del-1 was not deleted');
  });

  it('a PUB whose status OpenKruise v1.9.0 wrote is taken over: its records are honoured and expire as upstream\'s', async () => {
    const pub = await createPub('pub-take', 'pub-take');
    await threeGuardedPods('take', 'pub-take', 'pub-take');
    await untilStatus('pub-take', { unavailableAllowed: 1 });
    // The status as OpenKruise's webhook leaves it after admitting an eviction of take-2 (metav1.Time, whole seconds).
    const at = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    await rest.patch(resources.podUnavailableBudgets, { namespace: ns, name: 'pub-take', subresource: 'status' }, 'merge', { status: {
      observedGeneration: pub.metadata?.generation ?? 1, disruptedPods: { 'take-2': at }, unavailableAllowed: 0, currentAvailable: 3, desiredAvailable: 2, totalReplicas: 3 } });
    const refused = kubectl(['delete', 'pod', 'take-0', '-n', ns, '--wait=false']);
    assert.match(refused.stderr, /pub unavailable allowed is negative/, 'the record written by OpenKruise keeps the budget spent');
    // take-2 was never deleted: after upstream's 20 s the controller drops the record with NotDeleted and frees the unit.
    await untilStatus('pub-take', { unavailableAllowed: 1, currentAvailable: 3 }, 60_000);
    assert.equal((await pubStatus('pub-take')).status?.disruptedPods, undefined);
    const events = kubectlOk(['get', 'events', '-n', ns, '--field-selector', 'involvedObject.name=take-2,reason=NotDeleted', '-o', 'name']);
    assert.notEqual(events.trim(), '', 'NotDeleted event on take-2');
  });

  it('with PodUnavailableBudgetUpdateGate: a SidecarSet rollout with maxUnavailable 3 over 3 guarded pods moves one pod at a time', async () => {
    await createPub('pub-roll', 'pub-roll');
    await sets.create('pub-roll', 'pub-roll', 'busybox:1.35.0', { maxUnavailable: 3 });
    await threeGuardedPods('roll', 'pub-roll', 'pub-roll');
    await untilStatus('pub-roll', { unavailableAllowed: 1, currentAvailable: 3 });
    await sets.setImage('pub-roll', 'busybox:1.36.0');
    let peak = 0;
    await kubelet().until((ps) => ofApp(ps, 'pub-roll').every((p) => sidecarImage(p) === 'busybox:1.36.0') && unavailable(ofApp(ps, 'pub-roll')).length === 0, {
      what: 'rollout under the PUB', timeoutMs: 240_000,
      check: (ps) => {
        const down = unavailable(ofApp(ps, 'pub-roll'));
        peak = Math.max(peak, down.length);
        assert.ok(down.length <= 1, `the PUB allows one unavailable pod, saw ${down.join(', ')}`);
      },
    });
    assert.equal(peak, 1, 'the rollout did move');
  });
});
