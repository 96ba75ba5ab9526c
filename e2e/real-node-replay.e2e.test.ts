// The seed article replayed on the real node with the examples' own images (stand-ins served from the node's
// registry as docker.io): injection and in-place sidecar upgrade (01, 02), ContainerRecreateRequest (08), hot
// upgrade (07), NodeImage (09), the Deployment with sidecars and the canary (05, 06), ImagePullJob (10), container
// launch priority (11) and ResourceDistribution (12). Real kubelet, containerd and runc do the restarts, pulls and
// container starts; the outcomes asserted are what the article shows. Each scenario runs only when this tree has
// the parts it needs and says what is missing otherwise.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { load, loadAll } from 'js-yaml';
import { connectCri } from '../daemon/cri/grpc-runtime.js';
import { REAL_NODE_LABEL, REAL_NODE_TAINT } from './harness/node/index.js';
import { podLogsOnNode } from './harness/node/diagnostics.js';
import { eventually, getJson, kubectl, kubectlOk, stack, untilInjected } from './harness/kube.js';
import { upstreamHash } from './harness/rd-hash.js';

interface ContainerStatus { name: string; ready: boolean; image: string; imageID: string; containerID?: string; restartCount: number; state: { running?: object } }
interface Container {
  name: string; image: string; env?: { name: string; value?: string }[]; volumeMounts?: { name: string; mountPath: string }[];
}
interface Pod {
  metadata: { name: string; uid: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { nodeName?: string; containers: Container[]; volumes?: { name: string; emptyDir?: object }[] };
  status: { phase?: string; containerStatuses?: ContainerStatus[] };
}
interface SidecarSet {
  metadata: { generation: number };
  spec: { containers: { image: string }[] };
  status?: { observedGeneration?: number; matchedPods?: number; updatedPods?: number; readyPods?: number };
}
interface Crr { status?: { phase?: string; containerRecreateStates?: { name: string; phase: string }[] } }
interface Event { reason: string; message: string; count?: number; source?: { component?: string }; reportingComponent?: string }

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const skip = typeof s === 'string' ? s : node ? false : 'the stack has no real node (KRUISE_TS_REAL_NODE=0)';
const repo = join(import.meta.dirname, '..');
const NS = 'seed-replay';
/** Example 12's namespaces: ns-1 and ns-4 listed, ns-2 and ns-3 labelled group=test, ns-3 excluded. */
const RD_NAMESPACES = ['ns-1', 'ns-2', 'ns-3', 'ns-4'];
const examplePath = (f: string) => join(import.meta.dirname, 'cluster/examples', f);
const example = (f: string) => load(readFileSync(examplePath(f), 'utf8')) as Record<string, any>;
/** False when every file is in the tree, else a skip reason naming the missing ones. */
const needs = (...files: string[]): string | false => {
  const missing = files.filter((f) => !existsSync(join(repo, f)));
  return missing.length ? `not in this tree yet: ${missing.join(', ')}` : false;
};

const pod = (name: string) => getJson<Pod>(['pod', '-n', NS, name]);
const status = (p: Pod, c: string) => p.status.containerStatuses?.find((x) => x.name === c);
const allRunning = (p: Pod) => p.status.phase === 'Running' && (p.status.containerStatuses ?? []).length === p.spec.containers.length &&
  (p.status.containerStatuses ?? []).every((c) => c.ready && c.state.running);
const events = (name: string) => getJson<{ items: Event[] }>(['events', '-n', NS, '--field-selector', `involvedObject.name=${name}`]).items;
/** The image reference the kubelet reports for a pod's `image:` (docker.io implied, `latest` when untagged). */
const reported = (image: string) => `docker.io/library/${image.includes(':') ? image : `${image}:latest`}`;
/** Pins a workload's pods to the real node: its label, plus a toleration of its taint. */
const pinTemplate = (spec: Record<string, any>) => {
  spec.nodeSelector = { [REAL_NODE_LABEL]: 'true' };
  spec.tolerations = [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }];
};
/** The row of `kubectl get <kind> <name>` as { COLUMN: value }: the printer columns the article shows. */
const row = (args: string[]): Record<string, string> => {
  const [head, line] = kubectlOk(['get', ...args]).trim().split('\n');
  // Columns are left-aligned: each value starts where its header does (a value may contain one space: "1 (5s ago)").
  const starts = [...(head ?? '').matchAll(/\S+/g)].map((m) => [m[0], m.index] as const);
  return Object.fromEntries(starts.map(([h, at], i) => [h, (line ?? '').slice(at, starts[i + 1]?.[1]).trim()]));
};
/** scs-demo's sidecar as the article's `kubectl get pod test-pod -o yaml` shows it: first, IS_INJECTED, log-volume. */
function assertInjected(p: Pod, image: string): void {
  const [sidecar] = p.spec.containers;
  assert.equal(sidecar?.name, 'sidecar1', `${p.metadata.name}: sidecar1 first`);
  assert.equal(sidecar.image, image, p.metadata.name);
  assert.ok(sidecar.env?.some((e) => e.name === 'IS_INJECTED' && e.value === 'true'), `${p.metadata.name}: IS_INJECTED=true`);
  assert.ok(sidecar.volumeMounts?.some((m) => m.name === 'log-volume' && m.mountPath === '/var/log'), `${p.metadata.name}: log-volume on /var/log`);
  assert.ok(p.spec.volumes?.some((v) => v.name === 'log-volume' && v.emptyDir), `${p.metadata.name}: volume log-volume (emptyDir)`);
}
async function daemonRunning(name: string): Promise<void> {
  await eventually('the daemon pod Running on the real node', () => getJson<{ items: Pod[] }>(['pods', '-n', 'kruise-daemon', '-l', 'control-plane=daemon'])
    .items.some((p) => p.spec.nodeName === name && allRunning(p)), 240_000);
}
const nodeImages = () => execFileSync('ctr', ['-a', node?.containerd?.socket ?? '', '-n', 'k8s.io', 'images', 'ls', '-q'], { encoding: 'utf8' });

/** test-pod (02) on the real node, created once and shared by the scenarios that use it, as in the article. */
async function testPod(): Promise<Pod> {
  if (kubectl(['get', 'pod', '-n', NS, 'test-pod']).code !== 0) {
    const p = example('02-test-pod.yaml');
    p.metadata.namespace = NS;
    p.spec.nodeName = node?.name;
    kubectlOk(['create', '-f', '-'], JSON.stringify(p));
  }
  return eventually('test-pod 2/2 Running', () => { const p = pod('test-pod'); return allRunning(p) && p; }, 180_000);
}

describe('seed replay on the real node', { skip, timeout: 1_800_000 }, () => {
  before(async () => {
    kubectlOk(['apply', '-f', examplePath('01-sidecarset-demo.yaml')]);
    kubectlOk(['create', 'namespace', NS]);
    await untilInjected(NS, { app: 'nginx' }, 'sidecar1', 'busybox');
  });
  after(() => {
    kubectl(['delete', 'namespace', NS, '--wait=false']);
    // Cluster-wide and changed here: later files apply the examples afresh.
    kubectl(['delete', 'sidecarset', 'scs-demo', 'hotupgrade-sidecarset', '--ignore-not-found']);
    // resource-distribution.e2e.test.ts creates these namespaces and this RD again: wait until they are gone.
    kubectl(['delete', 'resourcedistribution', 'sample', '--ignore-not-found', '--timeout=60s']);
    kubectl(['delete', 'namespace', ...RD_NAMESPACES, '--ignore-not-found', '--timeout=120s']);
  });

  it('01 + 02: test-pod is 2/2 Running on the real node with scs-demo\'s sidecar1 injected first', { skip: needs('webhook/main.ts') }, async () => {
    const p = await testPod();
    assertInjected(p, 'busybox');
    assert.deepEqual(p.spec.containers.map((c) => c.name), ['sidecar1', 'app']);
    assert.equal(p.spec.nodeName, node?.name);
    const r = row(['pod', '-n', NS, 'test-pod']);
    assert.deepEqual([r.READY, r.STATUS, r.RESTARTS], ['2/2', 'Running', '0'], JSON.stringify(r));
  });

  it('02: patching scs-demo to busybox:1.35.0 upgrades sidecar1 in place: same pod, RESTARTS 1, new imageID, recorded state',
    { skip: needs('controller/sidecarset/controller.ts') }, async () => {
      const before = await testPod();
      const old = status(before, 'sidecar1') as ContainerStatus;
      kubectlOk(['patch', 'sidecarset', 'scs-demo', '--type=json', '-p', '[{"op":"replace","path":"/spec/containers/0/image","value":"busybox:1.35.0"}]']);
      // busybox `sleep` as PID 1 ignores SIGTERM, so the kubelet waits out the 30 s grace period, as in the article.
      const after = await eventually('sidecar1 restarted on busybox:1.35.0', () => {
        const p = pod('test-pod');
        const c = status(p, 'sidecar1');
        return c?.image === 'docker.io/library/busybox:1.35.0' && c.ready && c.restartCount === old.restartCount + 1 && p;
      }, 240_000);
      assert.equal(after.metadata.uid, before.metadata.uid, 'the same pod');
      assert.notEqual(status(after, 'sidecar1')?.imageID, old.imageID);
      assert.ok(events('test-pod').some((e) => e.reason === 'Killing' && e.message === 'Container sidecar1 definition changed, will be restarted'));
      const state = JSON.parse(after.metadata.annotations?.['kruise.io/sidecarset-inplace-update-state'] ?? '{}') as
        Record<string, { revision?: string; updateTimestamp?: string; lastContainerStatuses?: Record<string, { imageID?: string }> }>;
      assert.ok(state['scs-demo']?.revision && state['scs-demo'].updateTimestamp, JSON.stringify(state));
      assert.equal(state['scs-demo'].lastContainerStatuses?.sidecar1?.imageID, old.imageID);
      assert.match(row(['pod', '-n', NS, 'test-pod']).RESTARTS ?? '', /^1 \(\S+ ago\)$/, '`kubectl get pod test-pod`: RESTARTS 1 (…ago)');
      // `kubectl get sidecarset`: UPDATED (and READY) follow the upgrade; every app=nginx pod in the cluster is matched.
      const matched = getJson<{ items: Pod[] }>(['pods', '-A', '-l', 'app=nginx']).items.length;
      await eventually('scs-demo status: UPDATED = READY = MATCHED', () => {
        const ss = getJson<SidecarSet>(['sidecarset', 'scs-demo']);
        return ss.status?.observedGeneration === ss.metadata.generation && ss.status.matchedPods === matched &&
          ss.status.updatedPods === matched && ss.status.readyPods === matched;
      }, 60_000);
      const r = row(['sidecarset', 'scs-demo']);
      assert.deepEqual([r.MATCHED, r.UPDATED, r.READY], [String(matched), String(matched), String(matched)], JSON.stringify(r));
    });

  it('08: a ContainerRecreateRequest recreates app and sidecar1 of test-pod in place',
    { skip: needs('controller/containerrecreaterequest/controller.ts', 'daemon/main.ts') }, async () => {
      const before = await testPod();
      const crr = example('08-container-recreate-request.yaml');
      crr.metadata.namespace = NS;
      kubectlOk(['create', '-f', '-'], JSON.stringify(crr));
      const done = await eventually('crr-demo Completed', () => {
        const c = getJson<Crr>(['containerrecreaterequest', '-n', NS, 'crr-demo']);
        return c.status?.phase === 'Completed' && c;
      }, 420_000);
      assert.deepEqual(done.status?.containerRecreateStates?.map((c) => [c.name, c.phase]), [['app', 'Succeeded'], ['sidecar1', 'Succeeded']]);
      const after = pod('test-pod');
      assert.equal(after.metadata.uid, before.metadata.uid, 'the same pod');
      for (const name of ['app', 'sidecar1']) {
        const [b, a] = [status(before, name), status(after, name)];
        assert.equal(a?.restartCount, (b?.restartCount ?? 0) + 1, name);
        assert.notEqual(a?.containerID, b?.containerID, name);
      }
    });

  it('07: hot upgrade to sidecarv2 hands the sidecar over with no failed request and resets the old slot to the empty image',
    { skip: needs('controller/sidecarset/hot-upgrade-flip.ts') }, async () => {
      const [sidecarSet, deploy] = loadAll(readFileSync(examplePath('07-hotupgrade.yaml'), 'utf8')) as Record<string, any>[];
      deploy!.metadata.namespace = NS;
      pinTemplate(deploy!.spec.template.spec);
      kubectlOk(['apply', '-f', '-'], JSON.stringify(sidecarSet));
      kubectlOk(['apply', '-f', '-'], JSON.stringify(deploy));
      const running = await eventually('hot-upgrade pod 3/3', () => {
        const [p] = getJson<{ items: Pod[] }>(['pods', '-n', NS, '-l', 'app=hotupgrade']).items;
        return p && allRunning(p) && p.spec.containers.length === 3 && p;
      }, 240_000);
      const name = running.metadata.name;
      const logs = () => kubectlOk(['logs', '-n', NS, name, '-c', 'busybox']);
      await eventually('the app hears v1', () => logs().includes('response(body=This is version(v1) sidecar)'), 60_000);
      kubectlOk(['patch', 'sidecarset', 'hotupgrade-sidecarset', '--type=json', '-p',
        '[{"op":"replace","path":"/spec/containers/0/image","value":"openkruise/hotupgrade-sample:sidecarv2"}]']);
      const upgraded = await eventually('v2 serving and the old slot reset to empty', () => {
        const p = pod(name);
        const images = Object.fromEntries((p.status.containerStatuses ?? []).map((c) => [c.name, c.image]));
        return allRunning(p) && images['sidecar-2'] === 'docker.io/openkruise/hotupgrade-sample:sidecarv2' &&
          images['sidecar-1'] === 'docker.io/openkruise/hotupgrade-sample:empty' && logs().includes('This is version(v2) sidecar') && p;
      }, 300_000);
      assert.equal(upgraded.metadata.uid, running.metadata.uid, 'the same pod');
      assert.equal(status(upgraded, 'busybox')?.restartCount, 0, 'the app never failed a request (it exits on the first)');
      const lines = logs().trim().split('\n');
      assert.ok(lines.every((l) => /request sidecar server success, and response\(body=This is version\(v[12]\) sidecar\)$/.test(l)), lines.find((l) => !l.includes('success')));
      const firstV2 = lines.findIndex((l) => l.includes('(v2)'));
      assert.ok(firstV2 > 0 && lines.slice(firstV2).every((l) => l.includes('(v2)')), 'v1 answers, then only v2');
      assert.ok(events(name).some((e) => e.reason === 'ResetContainerSucceed'), 'event ResetContainerSucceed');
    });

  it('09: NodeImage pulls ubuntu:latest onto the real node: Succeeded, progress 100, event PullImageSucceed, image in containerd',
    { skip: needs('daemon/main.ts') }, async () => {
      const name = node?.name ?? '';
      await daemonRunning(name);
      // Upstream's NodeImage controller makes one per node; create it if this tree's controllers have not.
      if (kubectl(['get', 'nodeimage', name]).code !== 0) {
        kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name } }));
      }
      const spec = example('09-nodeimage-pull.yaml');
      kubectlOk(['patch', 'nodeimage', name, '--type=merge', '-p', JSON.stringify(spec)]);
      await eventually('ubuntu:latest Succeeded', () => {
        const ni = getJson<{ status?: { succeeded?: number; imageStatuses?: Record<string, { tags: { tag: string; phase: string; progress?: number }[] }> } }>(['nodeimage', name]);
        const tag = ni.status?.imageStatuses?.ubuntu?.tags.find((t) => t.tag === 'latest');
        return tag?.phase === 'Succeeded' && tag.progress === 100 && (ni.status?.succeeded ?? 0) >= 1;
      }, 180_000).catch((err: Error) => { throw new Error(`${err.message}\n${podLogsOnNode(name, 'kruise-daemon', 'control-plane=daemon')}`); });
      const ev = getJson<{ items: (Event & { message: string })[] }>(['events', '-A', '--field-selector', `involvedObject.kind=NodeImage,involvedObject.name=${name}`]).items;
      assert.ok(ev.some((e) => e.reason === 'PullImageSucceed' && e.message.startsWith('Image ubuntu:latest, ecalpsedTime')), JSON.stringify(ev.map((e) => e.message)));
      assert.match(nodeImages(), /^docker\.io\/library\/ubuntu:latest$/m);
    });

  it('05 + 06: the 3-replica Deployment gets sidecars; the canary upgrades only canary.release=true pods',
    { skip: needs('controller/sidecarset/controller.ts') }, async () => {
      const current = getJson<SidecarSet>(['sidecarset', 'scs-demo']).spec.containers[0]?.image ?? '';
      const deploy = example('05-nginx-deployment.yaml');
      deploy.metadata.namespace = NS;
      pinTemplate(deploy.spec.template.spec);
      kubectlOk(['apply', '-f', '-'], JSON.stringify(deploy));
      const [, canaryPod] = loadAll(readFileSync(examplePath('06-canary-sidecarset.yaml'), 'utf8')) as Record<string, any>[];
      canaryPod!.metadata.namespace = NS;
      canaryPod!.spec.nodeName = node?.name;
      kubectlOk(['create', '-f', '-'], JSON.stringify(canaryPod));
      const nginxPods = () => getJson<{ items: Pod[] }>(['pods', '-n', NS, '-l', 'app=nginx']).items;
      const deployPods = (l: Pod[]) => l.filter((p) => p.metadata.name.startsWith('nginx-'));
      const pods = await eventually('3 nginx pods and canary-pod 2/2 Running', () => {
        const l = nginxPods();
        return deployPods(l).length === 3 && l.some((p) => p.metadata.name === 'canary-pod') && l.every(allRunning) && l;
      }, 240_000);
      for (const p of pods) {
        assert.equal(p.spec.nodeName, node?.name, p.metadata.name);
        assertInjected(p, current);
      }
      // `kubectl get pods -l app=nginx` as in the article: every pod 2/2 Running.
      const table = kubectlOk(['get', 'pods', '-n', NS, '-l', 'app=nginx']).trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/));
      assert.equal(table.length, pods.length);
      assert.ok(table.every(([, ready, st]) => ready === '2/2' && st === 'Running'), JSON.stringify(table));

      // 06 as printed is a second SidecarSet with container sidecar1 whose selector (canary.release=true) overlaps
      // scs-demo's (app=nginx: different keys never make selectors disjoint). Upstream v1.8 refuses it too
      // (validateSidecarConflict, spec/webhooks.md §3 phase B), so on OpenKruise the article's canary can only be
      // scs-demo's own updateStrategy.selector, which is what the text describes and what is replayed below.
      const [canarySet] = loadAll(readFileSync(examplePath('06-canary-sidecarset.yaml'), 'utf8')) as Record<string, any>[];
      const refused = kubectl(['create', '-f', '-'], JSON.stringify(canarySet));
      assert.notEqual(refused.code, 0, 'test-sidecarset next to scs-demo is refused');
      assert.match(refused.stderr, /admission webhook "vsidecarset\.kb\.io" denied the request: .*container sidecar1 already exist in scs-demo/);

      const next = current === 'busybox' ? 'busybox:1.35.0' : 'busybox';
      const before = new Map([...pods, pod('test-pod')].map((p) => [p.metadata.name, p]));
      // test-pod was restarted by 02 and 08 already: count the kills from here on.
      const kills = (name: string) => events(name).filter((e) => e.reason === 'Killing').reduce((n, e) => n + (e.count ?? 1), 0);
      const killsBefore = new Map([...before.keys()].map((name) => [name, kills(name)]));
      kubectlOk(['patch', 'sidecarset', 'scs-demo', '--type=json', '-p', JSON.stringify([
        { op: 'add', path: '/spec/updateStrategy/selector', value: { matchLabels: { 'canary.release': 'true' } } },
        { op: 'replace', path: '/spec/containers/0/image', value: next }])]);
      const oldCanary = before.get('canary-pod') as Pod;
      const canary = await eventually(`canary-pod's sidecar1 restarted on ${next}`, () => {
        const p = pod('canary-pod');
        const c = status(p, 'sidecar1');
        return c?.image === reported(next) && c.ready && c.restartCount === (status(oldCanary, 'sidecar1')?.restartCount ?? 0) + 1 && p;
      }, 240_000);
      assert.equal(canary.metadata.uid, oldCanary.metadata.uid, 'the same pod');
      assert.ok(events('canary-pod').some((e) => e.reason === 'Killing' && e.message === 'Container sidecar1 definition changed, will be restarted'));
      // The controller has acted on the new generation: one pod updated out of all it matches.
      const matched = getJson<{ items: Pod[] }>(['pods', '-A', '-l', 'app=nginx']).items.length;
      await eventually('scs-demo status: UPDATED 1', () => {
        const ss = getJson<SidecarSet>(['sidecarset', 'scs-demo']);
        return ss.status?.observedGeneration === ss.metadata.generation && ss.status.matchedPods === matched && ss.status.updatedPods === 1;
      }, 60_000);
      for (const p of [...deployPods(nginxPods()), pod('test-pod')]) {
        const was = before.get(p.metadata.name) ?? p;
        assert.equal(p.spec.containers[0]?.image, was.spec.containers[0]?.image, `${p.metadata.name} keeps its sidecar image`);
        assert.equal(status(p, 'sidecar1')?.restartCount, status(was, 'sidecar1')?.restartCount, `${p.metadata.name} not restarted`);
        assert.equal(kills(p.metadata.name), killsBefore.get(p.metadata.name), `${p.metadata.name}: no new Killing event`);
      }
    });

  it('10: the ImagePullJob pulls nginx:1.9.1 onto the real node: SUCCEED 1/1, NodeImage Succeeded, image in containerd',
    { skip: needs('daemon/main.ts', 'controller/imagepulljob/controller.ts') }, async () => {
      const name = node?.name ?? '';
      await daemonRunning(name);
      assert.doesNotMatch(nodeImages(), /^docker\.io\/library\/nginx:1\.9\.1$/m, 'not on the node before the job');
      // The example's pull secrets, for docker.io (the node's registry answers without auth, so they are only carried).
      const auth = Buffer.from(JSON.stringify({ auths: { 'https://index.docker.io/v1/': { auth: Buffer.from('user:pass').toString('base64') } } })).toString('base64');
      for (const secret of ['secret-name1', 'secret-name2']) {
        kubectlOk(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/dockerconfigjson',
          metadata: { name: secret, namespace: NS }, data: { '.dockerconfigjson': auth } }));
      }
      const job = example('10-imagepulljob.yaml');
      job.metadata.namespace = NS;
      job.spec.selector = { names: [name] };
      await eventually(`NodeImage ${name}`, () => kubectl(['get', 'nodeimage', name]).code === 0, 120_000);
      kubectlOk(['create', '-f', '-'], JSON.stringify(job));
      type Ipj = { status?: { desired?: number; succeeded?: number; failed?: number; completionTime?: string } };
      const done = await eventually('job-with-always: 1 of 1 succeeded, completed', () => {
        const j = getJson<Ipj>(['imagepulljob', '-n', NS, 'job-with-always']);
        return !!j.status?.completionTime && j.status.desired === 1 && j.status.succeeded === 1 && j;
      }, 240_000).catch((err: Error) => { throw new Error(`${err.message}\n${podLogsOnNode(name, 'kruise-daemon', 'control-plane=daemon')}`); });
      assert.equal(done.status?.failed ?? 0, 0);
      const r = row(['imagepulljob', '-n', NS, 'job-with-always']);
      assert.deepEqual([r.TOTAL, r.SUCCEED, r.FAILED], ['1', '1', '0'], JSON.stringify(r));
      const ni = getJson<{ status?: { imageStatuses?: Record<string, { tags: { tag: string; phase: string; progress?: number }[] }> } }>(['nodeimage', name]);
      const tag = ni.status?.imageStatuses?.nginx?.tags.find((t) => t.tag === '1.9.1');
      assert.deepEqual([tag?.phase, tag?.progress], ['Succeeded', 100]);
      assert.match(nodeImages(), /^docker\.io\/library\/nginx:1\.9\.1$/m);
    });

  it('11: container-launch-priority starts the sidecar before main, by CRI start times and the barrier keys',
    { skip: needs('controller/launch-priority/controller.ts') }, async () => {
      const pods = loadAll(readFileSync(examplePath('11-container-launch-priority.yaml'), 'utf8')) as Record<string, any>[];
      for (const p of pods) {
        p.metadata.namespace = NS;
        p.spec.nodeName = node?.name;
        kubectlOk(['create', '-f', '-'], JSON.stringify(p));
      }
      const cri = connectCri({ endpoint: node?.containerd?.socket ?? '' });
      try {
        for (const [name, keys] of [['ordered-pod', ['p_-1', 'p_0']], ['priority-pod', ['p_0', 'p_1']]] as const) {
          const p = await eventually(`${name} 2/2 Running`, () => { const x = pod(name); return allRunning(x) && x; }, 180_000);
          assert.equal(p.metadata.annotations?.['apps.kruise.io/container-launch-priority-completed'], 'true', name);
          const barrier = getJson<{ data?: Record<string, string> }>(['configmap', '-n', NS, `${name}-barrier`]);
          assert.deepEqual(Object.keys(barrier.data ?? {}).sort(), keys, `${name}-barrier keys`);
          // The kubelet's own containers, as containerd recorded them (nanoseconds).
          const started = new Map<string, { created: bigint; started: bigint }>();
          for (const c of await cri.runtime.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': p.metadata.uid } })) {
            const st = await cri.runtime.containerStatus(c.id);
            started.set(st.name, { created: st.createdAtNs, started: st.startedAtNs });
          }
          const [sidecar, main] = [started.get('sidecar'), started.get('main')];
          assert.ok(sidecar && main && sidecar.started > 0n, `${name}: ${JSON.stringify([...started.keys()])}`);
          // main's container is created only once the sidecar runs: the barrier held it back until then.
          assert.ok(sidecar.started < main.created, `${name}: sidecar started ${sidecar.started}, main created ${main.created}`);
        }
      } finally {
        cri.close();
      }
      // ordered-pod lists sidecar first anyway, so the proof that main waited is the kubelet failing to create it
      // while its barrier key was missing; priority-pod lists main first, so its start order alone is the proof.
      const held = events('ordered-pod').filter((e) => e.reason === 'Failed' && /ordered-pod-barrier/.test(e.message));
      assert.ok(held.length > 0, JSON.stringify(events('ordered-pod').map((e) => `${e.reason}: ${e.message}`)));
    });

  it('12: the ResourceDistribution copies game-demo into ns-1, ns-4 and group=test namespaces except ns-3, with upstream\'s annotations',
    { skip: needs('controller/resourcedistribution/controller.ts') }, async () => {
      for (const ns of RD_NAMESPACES) kubectlOk(['create', 'namespace', ns]);
      for (const ns of ['ns-2', 'ns-3']) kubectlOk(['label', 'namespace', ns, 'group=test']);
      kubectlOk(['apply', '-f', examplePath('12-resourcedistribution.yaml')]);
      const want = ['ns-1', 'ns-2', 'ns-4'];
      const copy = (ns: string) => {
        const r = kubectl(['get', 'configmap', 'game-demo', '-n', ns, '-o', 'json']);
        return r.code === 0 ? JSON.parse(r.stdout) as { metadata: { annotations?: Record<string, string> }; data?: Record<string, string> } : undefined;
      };
      await eventually('copies in ns-1, ns-2, ns-4 and none in ns-3', () => want.every((ns) => copy(ns)) && !copy('ns-3'), 60_000);
      const source = example('12-resourcedistribution.yaml').spec.resource as { data: Record<string, string> };
      const hash = upstreamHash('sample');
      // The article's copy of this very resource, distributed by OpenKruise in 2021, carries the same hashcode.
      assert.equal(hash, '0821a13321b2c76b5bd63341a0d97fb46bfdbb2f914e2ad6b613d10632fa4b63', 'the hashcode the article prints');
      for (const ns of want) {
        const c = copy(ns);
        assert.deepEqual(c?.data, source.data, ns);
        const a = c?.metadata.annotations ?? {};
        assert.equal(a['kruise.io/resourcedistribution.resource.from'], 'sample', ns);
        assert.equal(a['kruise.io/resourcedistribution.resource.hashcode'], hash, `${ns}: SHA-256 of the raw spec.resource bytes`);
        assert.ok(!Number.isNaN(Date.parse(a['kruise.io/resourcedistribution.resource.distributed.timestamp'] ?? '')), `${ns}: a distributed.timestamp`);
      }
    });
});
