// NodeImage and ImagePullJob controllers on the real apiserver (+ KCM, kwok nodes, the kruise-ts webhook). The
// daemon is played by the test (harness/daemon-standin.ts): it writes NodeImage status as kruise-daemon would.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reportPull } from './harness/daemon-standin.js';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';
import { needsPods, scale } from './harness/release.js';

const s = stack();
const ns = 'e2e-imagepulljob';
const DAEMON_NS = 'kruise-daemon-config';
const KWOK = ['kwok-node-1', 'kwok-node-2', 'kwok-node-3'];
const LATE = 'kts-ipj-late-node';
/** NodeImage creation waits 30 s after Ready; the cluster is loaded; be generous. */
const SLOW = 120_000;

interface Ref { apiVersion?: string; kind?: string; name?: string; namespace?: string; uid?: string }
interface TagSpec { tag: string; version?: number; createdAt?: string; ownerReferences?: Ref[]; imagePullPolicy?: string;
  pullPolicy?: { timeoutSeconds?: number; backoffLimit?: number; ttlSecondsAfterFinished?: number; activeDeadlineSeconds?: number } }
interface NodeImage { metadata: { name: string; labels?: Record<string, string> }; spec?: { images?: Record<string, { tags: TagSpec[]; pullSecrets?: { namespace: string; name: string }[] }> } }
interface Job { metadata: { uid: string; finalizers?: string[] }; status?: { startTime?: string; completionTime?: string; desired: number; active?: number;
  succeeded?: number; failed?: number; message?: string; failedNodes?: string[] } }

const nodeImage = (node: string): NodeImage | undefined => {
  const r = kubectl(['get', 'nodeimage', node, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as NodeImage) : undefined;
};
const tagOn = (node: string, image: string, tag: string): TagSpec | undefined => nodeImage(node)?.spec?.images?.[image]?.tags.find((t) => t.tag === tag);
const holders = (image: string, tag: string, nodes = KWOK) => nodes.filter((n) => tagOn(n, image, tag) !== undefined);
const job = (name: string): Job | undefined => {
  const r = kubectl(['get', 'imagepulljob', '-n', ns, name, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as Job) : undefined;
};
const createJob = (name: string, spec: Record<string, unknown>): Job => {
  kubectlOk(['create', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', metadata: { name }, spec }));
  return job(name)!;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const kwokNode = (name: string, labels: Record<string, string>) => JSON.stringify({
  apiVersion: 'v1', kind: 'Node',
  metadata: { name, annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' }, labels: { 'kubernetes.io/hostname': name, ...labels } },
  status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110' }, capacity: { cpu: '8', memory: '32Gi', pods: '110' } },
});

describe('NodeImage and ImagePullJob controllers', { skip: typeof s === 'string' ? s : false }, () => {
  before(async () => {
    kubectlOk(['create', 'namespace', ns]);
    await eventually('a NodeImage for every kwok node', () => KWOK.every((n) => nodeImage(n)), SLOW);
  });
  after(() => {
    kubectl(['delete', 'imagepulljob', '--all', '-n', ns, '--wait=false']);
    kubectl(['delete', 'namespace', ns, '--wait=false']);
    kubectl(['delete', 'node', LATE, '--wait=false']);
    kubectl(['delete', 'nodeimage', 'kts-ghost-fake', '--wait=false']);
    kubectl(['label', 'node', 'kwok-node-2', 'e2e-ipj-zone-']);
  });

  describe('NodeImage', () => {
    it('each kwok node has one, named after it, with exactly the node labels; label edits follow', async () => {
      for (const n of KWOK) {
        const node = getJson<{ metadata: { labels: Record<string, string> } }>(['node', n]);
        assert.deepEqual(nodeImage(n)?.metadata.labels, node.metadata.labels, n);
      }
      kubectlOk(['label', 'node', 'kwok-node-2', 'e2e-ipj-zone=b']);
      await eventually('label copied', () => nodeImage('kwok-node-2')?.metadata.labels?.['e2e-ipj-zone'] === 'b', 30_000);
      kubectlOk(['label', 'nodeimage', 'kwok-node-2', 'manual=x']);
      await eventually('hand-made label removed', () => nodeImage('kwok-node-2')?.metadata.labels?.manual === undefined, 30_000);
      const cols = kubectlOk(['get', 'nodeimage', 'kwok-node-1']).split('\n')[0]!.trim().split(/\s+/);
      assert.deepEqual(cols, ['NAME', 'DESIRED', 'PULLING', 'SUCCEED', 'FAILED', 'AGE']);
    });

    it('a NodeImage without a node is deleted, unless labelled apps.kruise.io/fake-nodeimage', async () => {
      kubectlOk(['create', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: 'kts-ghost-fake', labels: { 'apps.kruise.io/fake-nodeimage': 'true' } }, spec: {} }));
      kubectlOk(['create', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: 'kts-ghost' }, spec: {} }));
      await eventually('orphan deleted', () => !nodeImage('kts-ghost'), 30_000);
      assert.ok(nodeImage('kts-ghost-fake'), 'the fake one is kept');
    });

    it('a finished tag is removed after its ttlSecondsAfterFinished', async () => {
      kubectlOk(['patch', 'nodeimage', 'kwok-node-1', '--type=merge', '-p', JSON.stringify({ spec: { images: { 'e2e-ipj/ttl': { tags: [{ tag: '1', pullPolicy: { ttlSecondsAfterFinished: 3 } }] } } } })]);
      const t = tagOn('kwok-node-1', 'e2e-ipj/ttl', '1');
      assert.ok(t?.createdAt && t.pullPolicy?.timeoutSeconds === 600, 'the webhook defaulted createdAt and pullPolicy');
      reportPull('kwok-node-1', 'e2e-ipj/ttl', '1', 'Succeeded');
      await sleep(1_000);
      assert.ok(tagOn('kwok-node-1', 'e2e-ipj/ttl', '1'), 'kept before the TTL');
      await eventually('tag removed after the TTL', () => !tagOn('kwok-node-1', 'e2e-ipj/ttl', '1'), 30_000);
    });
  });

  describe('ImagePullJob', () => {
    it('selector.names: the tag goes to exactly those NodeImages with the job as owner; completes; deleted after its TTL; tags go with it', async () => {
      const j = createJob('by-names', { image: 'e2e-ipj/names:1', parallelism: 10, selector: { names: ['kwok-node-1', 'kwok-node-3', 'no-such-node'] },
        completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 3 } });
      assert.deepEqual(j.metadata.finalizers, ['apps.kruise.io/deletion-protection']);
      await eventually('tags on nodes 1 and 3', () => holders('e2e-ipj/names', '1').join() === 'kwok-node-1,kwok-node-3', 30_000);
      const tag = tagOn('kwok-node-1', 'e2e-ipj/names', '1')!;
      assert.deepEqual(tag.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', name: 'by-names', namespace: ns, uid: j.metadata.uid }]);
      assert.equal(tag.version, 0);
      assert.equal(tag.imagePullPolicy, 'IfNotPresent');
      assert.deepEqual({ ...tag.pullPolicy, ttlSecondsAfterFinished: undefined }, { timeoutSeconds: 600, backoffLimit: 3, ttlSecondsAfterFinished: undefined });
      assert.ok(tag.pullPolicy!.ttlSecondsAfterFinished! >= 3 + 300 && tag.pullPolicy!.ttlSecondsAfterFinished! < 3 + 600, 'TTL = job ttl + 300 + rand(300)');
      await eventually('status counts both as active', () => job('by-names')?.status?.active === 2 && job('by-names')?.status?.desired === 2, 30_000);
      assert.equal(job('by-names')?.status?.message, 'job is running, progress 0.0%');
      // v1beta1 (the preferred version) has no MESSAGE column (spec/openkruise-v1.9.md §5.1).
      assert.match(kubectlOk(['get', 'imagepulljobs.v1alpha1.apps.kruise.io', '-n', ns, 'by-names']).split('\n')[0]!, /NAME\s+TOTAL\s+ACTIVE\s+SUCCEED\s+FAILED\s+AGE\s+MESSAGE/);
      assert.match(kubectlOk(['get', 'imagepulljob', '-n', ns, 'by-names']).split('\n')[0]!, /^NAME\s+TOTAL\s+ACTIVE\s+SUCCEED\s+FAILED\s+AGE\s*$/);

      reportPull('kwok-node-1', 'e2e-ipj/names', '1', 'Succeeded');
      await eventually('progress 50%', () => job('by-names')?.status?.message === 'job is running, progress 50.0%', 30_000);
      reportPull('kwok-node-3', 'e2e-ipj/names', '1', 'Succeeded');
      const done = await eventually('completed', () => { const st = job('by-names')?.status; return st?.completionTime ? st : undefined; }, 30_000);
      assert.deepEqual({ ...done, startTime: undefined, completionTime: undefined },
        { startTime: undefined, completionTime: undefined, desired: 2, active: 0, succeeded: 2, failed: 0, message: 'job has completed' });
      await eventually('deleted after ttlSecondsAfterFinished', () => !job('by-names'), 30_000);
      await eventually('its tags removed once the job is gone', () => holders('e2e-ipj/names', '1').length === 0, 30_000);
    });

    it('label selector over node labels; editing the selector moves the tag; editing pullPolicy reaches the tag', async () => {
      kubectlOk(['label', 'node', 'kwok-node-2', 'e2e-ipj-zone=b', '--overwrite']);
      await eventually('label on the NodeImage', () => nodeImage('kwok-node-2')?.metadata.labels?.['e2e-ipj-zone'] === 'b', 30_000);
      createJob('by-labels', { image: 'e2e-ipj/labels:2', parallelism: 5, selector: { matchLabels: { 'e2e-ipj-zone': 'b' } }, completionPolicy: { type: 'Never' } });
      await eventually('tag on node 2 only', () => holders('e2e-ipj/labels', '2').join() === 'kwok-node-2', 30_000);
      kubectlOk(['patch', 'imagepulljob', '-n', ns, 'by-labels', '--type=merge', '-p', JSON.stringify({ spec: { selector: { matchLabels: null, names: ['kwok-node-1', 'kwok-node-3'] } } })]);
      await eventually('tag moved to nodes 1 and 3', () => holders('e2e-ipj/labels', '2').join() === 'kwok-node-1,kwok-node-3', 30_000);
      kubectlOk(['patch', 'imagepulljob', '-n', ns, 'by-labels', '--type=merge', '-p', JSON.stringify({ spec: { pullPolicy: { timeoutSeconds: 1200 }, imagePullPolicy: 'Always' } })]);
      await eventually('policy edit reached both tags (kruise#2221)', () => ['kwok-node-1', 'kwok-node-3'].every((n) => {
        const t = tagOn(n, 'e2e-ipj/labels', '2');
        return t?.pullPolicy?.timeoutSeconds === 1200 && t.pullPolicy.activeDeadlineSeconds === 1800 && t.imagePullPolicy === 'Always' && t.version === 0;
      }), 30_000);
      const never = tagOn('kwok-node-1', 'e2e-ipj/labels', '2')!.pullPolicy!.ttlSecondsAfterFinished!;
      assert.ok(never >= 86400 - 600 && never < 86400 + 600, 'Never: TTL 24 h ± 10 min');
      kubectlOk(['delete', 'imagepulljob', '-n', ns, 'by-labels']);
      await eventually('deleting the job (finalizer) removed its tags', () => holders('e2e-ipj/labels', '2').length === 0, 30_000);
    });

    it('podSelector: only nodes running matching pods', async () => {
      kubectlOk(['create', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'e2e-ipj-web' } },
        spec: { nodeName: 'kwok-node-3', containers: [{ name: 'c', image: 'nginx' }], tolerations: [{ operator: 'Exists' }] } }));
      createJob('by-pods', { image: 'e2e-ipj/pods:3', parallelism: 5, podSelector: { matchLabels: { app: 'e2e-ipj-web' } }, completionPolicy: { type: 'Never' } });
      await eventually('tag on node 3 only', () => holders('e2e-ipj/pods', '3').join() === 'kwok-node-3', 30_000);
      await eventually('desired 1', () => job('by-pods')?.status?.desired === 1, 30_000);
      kubectlOk(['delete', 'pod', '-n', ns, 'web', '--grace-period=0', '--force']);
      await eventually('no pod left, no target left', () => job('by-pods')?.status?.desired === 0 && holders('e2e-ipj/pods', '3').length === 0, 30_000);
      kubectlOk(['delete', 'imagepulljob', '-n', ns, 'by-pods']);
    });

    it('parallelism 1 rolls through the nodes as pulls finish, across a manager restart', { skip: needsPods(s) }, async () => {
      createJob('rolling', { image: 'e2e-ipj/rolling:4', parallelism: 1, selector: { names: KWOK }, completionPolicy: { type: 'Always' } });
      await eventually('first node tagged', () => holders('e2e-ipj/rolling', '4').join() === 'kwok-node-1', 30_000);
      await sleep(2_000);
      assert.deepEqual(holders('e2e-ipj/rolling', '4'), ['kwok-node-1'], 'one active pull at a time');

      await scale('controller-manager', 0);
      reportPull('kwok-node-1', 'e2e-ipj/rolling', '4', 'Succeeded');
      await sleep(2_000);
      assert.deepEqual(holders('e2e-ipj/rolling', '4'), ['kwok-node-1'], 'nothing moves while the manager is down');
      await scale('controller-manager', 2);

      await eventually('second node tagged by the new manager', () => holders('e2e-ipj/rolling', '4').join() === 'kwok-node-1,kwok-node-2', 60_000);
      assert.equal(tagOn('kwok-node-1', 'e2e-ipj/rolling', '4')?.version, 0, 'the finished node was not written again');
      reportPull('kwok-node-2', 'e2e-ipj/rolling', '4', 'Failed', { message: 'manifest unknown' });
      await eventually('third node tagged', () => holders('e2e-ipj/rolling', '4').length === 3, 30_000);
      reportPull('kwok-node-3', 'e2e-ipj/rolling', '4', 'Succeeded');
      const done = await eventually('completed', () => job('rolling')?.status?.completionTime ? job('rolling')!.status : undefined, 30_000);
      assert.deepEqual([done.succeeded, done.failed, done.failedNodes, done.message], [2, 1, ['kwok-node-2'], 'job has completed']);
      assert.deepEqual(job('rolling')?.metadata.finalizers ?? [], [], 'a completed job drops its finalizer');
    });

    it('activeDeadlineSeconds fails what has not finished', async () => {
      createJob('deadline', { image: 'e2e-ipj/deadline:5', parallelism: 1, selector: { names: ['kwok-node-1', 'kwok-node-2'] },
        pullPolicy: { timeoutSeconds: 2 }, completionPolicy: { type: 'Always', activeDeadlineSeconds: 4 } });
      const done = await eventually('completed by the deadline', () => job('deadline')?.status?.completionTime ? job('deadline')!.status : undefined, 30_000);
      assert.deepEqual([done.desired, done.succeeded, done.failed, done.failedNodes, done.message],
        [2, 0, 2, ['kwok-node-1', 'kwok-node-2'], 'job exceeds activeDeadlineSeconds']);
      assert.ok(Date.parse(done.completionTime!) - Date.parse(done.startTime!) >= 4_000);
      assert.equal(tagOn('kwok-node-1', 'e2e-ipj/deadline', '5')?.pullPolicy?.activeDeadlineSeconds, 4);
      assert.equal(tagOn('kwok-node-2', 'e2e-ipj/deadline', '5'), undefined, 'the second node never got its turn');
    });

    it('completion Never covers a node added later; the node and its NodeImage go together', async () => {
      createJob('late', { image: 'e2e-ipj/late:6', parallelism: 10, selector: { matchLabels: { 'e2e-ipj-late': 'yes' } }, completionPolicy: { type: 'Never' } });
      await eventually('running with no target', () => job('late')?.status?.message === 'job is running, no progress', 30_000);
      kubectlOk(['apply', '-f', '-'], kwokNode(LATE, { 'e2e-ipj-late': 'yes' }));
      await eventually('NodeImage created after the node is Ready (30 s delay)', () => nodeImage(LATE), SLOW);
      await eventually('the late node got the tag', () => tagOn(LATE, 'e2e-ipj/late', '6'), 30_000);
      reportPull(LATE, 'e2e-ipj/late', '6', 'Succeeded');
      await eventually('progress 100% and still running', () => job('late')?.status?.message === 'job is running, progress 100.0%', 30_000);
      assert.equal(job('late')?.status?.completionTime, undefined);
      kubectlOk(['delete', 'node', LATE]);
      await eventually('NodeImage deleted with the node', () => !nodeImage(LATE), 30_000);
      await eventually('no target left', () => job('late')?.status?.desired === 0, 30_000);
      kubectlOk(['delete', 'imagepulljob', '-n', ns, 'late']);
    });

    it('pullSecrets are copied into kruise-daemon-config, kept in sync, and released when the job completes', async () => {
      const cfg = (pw: string) => Buffer.from(JSON.stringify({ auths: { 'registry.example.com': { username: 'u', password: pw } } })).toString('base64');
      kubectlOk(['create', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'regcred', labels: { team: 'a' } },
        type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': cfg('one') } }));
      createJob('secrets', { image: 'registry.example.com/team/app:7', parallelism: 1, selector: { names: ['kwok-node-3'] }, pullSecrets: ['regcred'], completionPolicy: { type: 'Always' } });
      interface Secret { metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }; data?: Record<string, string> }
      const copies = () => getJson<{ items: Secret[] }>(['secret', '-n', DAEMON_NS]).items.filter((x) => x.metadata.annotations?.['imagepulljobs.kruise.io/source-key'] === `${ns}/regcred`);
      const copy = await eventually('copy made', () => copies()[0], 30_000);
      // v1.9 shared copies: `<source>-<6 hex>`, mode batch, no source-uid label (spec/openkruise-v1.9.md §7.1).
      assert.match(copy.metadata.name, /^regcred-[0-9a-f]{6}$/);
      assert.equal(copy.metadata.labels?.['imagepulljobs.kruise.io/source-uid'], undefined);
      assert.equal(copy.metadata.labels?.team, 'a');
      assert.equal(copy.metadata.annotations?.['imagepulljobs.kruise.io/references'], `${ns}/secrets`);
      assert.equal(copy.metadata.annotations?.['imagepulljobs.kruise.io/mode'], 'batch');
      assert.equal(copy.data?.['.dockerconfigjson'], cfg('one'));
      const refs = () => (nodeImage('kwok-node-3')?.spec?.images?.['registry.example.com/team/app']?.pullSecrets ?? []).map((r) => `${r.namespace}/${r.name}`);
      await eventually('the NodeImage refers to the copy, not the source', () => refs().join() === `${DAEMON_NS}/${copy.metadata.name}`, 30_000);
      kubectlOk(['patch', 'secret', '-n', ns, 'regcred', '--type=merge', '-p', JSON.stringify({ data: { '.dockerconfigjson': cfg('two') } })]);
      // Sources are not watched (review H2): the job reads them again within SOURCE_RESYNC_MS (60 s).
      await eventually('copy follows the source', () => copies()[0]?.data?.['.dockerconfigjson'] === cfg('two'), 90_000);
      assert.equal(copies().length, 1);
      reportPull('kwok-node-3', 'registry.example.com/team/app', '7', 'Succeeded');
      await eventually('completed', () => job('secrets')?.status?.completionTime, 30_000);
      const denied = kubectl(['patch', 'imagepulljob', '-n', ns, 'secrets', '--type=merge', '-p', JSON.stringify({ spec: { pullSecrets: ['other'] } })]);
      assert.notEqual(denied.code, 0);
      assert.match(denied.stderr, /spec.pullSecrets is immutable/);
      await eventually('copy released', () => copies().length === 0, 30_000);
      // A v1alpha1 NodeImage has no `mode` (pruned), so its ref is an ordinary one and goes with the Secret; stored as
      // v1beta1 the ref says `mode: batch` and stays until the image entry goes with its last tag (§7.1).
      await eventually('NodeImage ref to the deleted copy dropped, or kept as a batch ref', () => refs().length === 0 ||
        (nodeImage('kwok-node-3')?.spec?.images?.['registry.example.com/team/app']?.pullSecrets ?? []).every((r) => (r as { mode?: string }).mode === 'batch'), 30_000);
    });

    it('two jobs listing one Secret share one copy; deleting one keeps it, deleting both removes it (v1.9)', async () => {
      kubectlOk(['create', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sharedcred' },
        type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') } }));
      for (const [name, tag] of [['share-a', '1'], ['share-b', '2']] as const) {
        createJob(name, { image: `registry.example.com/team/shared:${tag}`, parallelism: 1, selector: { names: ['kwok-node-2'] },
          pullSecrets: ['sharedcred'], completionPolicy: { type: 'Never' } });
      }
      interface Secret { metadata: { name: string; annotations?: Record<string, string> } }
      const copies = () => getJson<{ items: Secret[] }>(['secret', '-n', DAEMON_NS]).items.filter((x) => x.metadata.annotations?.['imagepulljobs.kruise.io/source-key'] === `${ns}/sharedcred`);
      const references = () => copies().map((c) => c.metadata.annotations?.['imagepulljobs.kruise.io/references']);
      await eventually('one copy referencing both jobs', () => references().join(' ') === `${ns}/share-a,${ns}/share-b`, 30_000);
      const name = copies()[0]!.metadata.name;
      const refs = () => (nodeImage('kwok-node-2')?.spec?.images?.['registry.example.com/team/shared']?.pullSecrets ?? []).map((r) => `${r.namespace}/${r.name}`);
      await eventually('both tags on the node, the image listing the one copy', () =>
        holders('registry.example.com/team/shared', '1', ['kwok-node-2']).length === 1 && holders('registry.example.com/team/shared', '2', ['kwok-node-2']).length === 1 &&
        refs().join() === `${DAEMON_NS}/${name}`, 30_000);
      kubectlOk(['delete', 'imagepulljob', '-n', ns, 'share-a']);
      await eventually('share-a gone, the copy kept for share-b', () => !job('share-a') && references().join(' ') === `${ns}/share-b`, 30_000);
      assert.equal(copies()[0]?.metadata.name, name, 'the same copy');
      kubectlOk(['delete', 'imagepulljob', '-n', ns, 'share-b']);
      await eventually('the last job out deletes the copy', () => !job('share-b') && copies().length === 0, 30_000);
    });

    it('bad specs are refused by the validating webhook with the reason', () => {
      const cases: { name: string; spec: Record<string, unknown>; want: RegExp }[] = [
        { name: 'names and labels', spec: { selector: { names: ['a'], matchLabels: { a: 'b' } } }, want: /can not set both names and labelSelector in this spec.selector/ },
        { name: 'selector and podSelector', spec: { selector: { names: ['a'] }, podSelector: { matchLabels: { a: 'b' } } }, want: /can not set both selector and podSelector/ },
        { name: 'percent parallelism', spec: { parallelism: '50%' }, want: /parallelism does not support percentage value/ },
        { name: 'deadline below timeout', spec: { pullPolicy: { timeoutSeconds: 60 }, completionPolicy: { type: 'Always', activeDeadlineSeconds: 30 } },
          want: /completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds\(default 600\)/ },
        { name: 'Never with TTL', spec: { completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 10 } }, want: /activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType/ },
        { name: 'bad image', spec: { image: 'Nginx:1' }, want: /invalid image Nginx:1: .*must be lowercase/ },
        { name: 'duplicate names', spec: { selector: { names: ['a', 'a'] } }, want: /duplicated name in selector names/ },
      ];
      for (const tc of cases) {
        const spec = { image: 'e2e-ipj/bad:1', completionPolicy: { type: 'Always' }, ...tc.spec };
        const r = kubectl(['create', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', metadata: { name: 'bad' }, spec }));
        assert.notEqual(r.code, 0, tc.name);
        assert.match(r.stderr, /admission webhook "vimagepulljob-v1beta1.kb.io" denied the request/, tc.name);
        assert.match(r.stderr, tc.want, tc.name);
      }
    });
  });
});
