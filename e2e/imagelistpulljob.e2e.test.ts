// ImageListPullJob on the real node (kubelet + containerd, kruise-ts installed by Helm with its daemon as a pod):
// a list of two images, served by the node's loopback registry (docker.io mirrored, harness/images), gets one child
// ImagePullJob per image, owned by the list; the daemon pulls both; the list completes, reads back in both API
// versions, and its children go with it when it is deleted (garbage collection).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const skip = typeof s === 'string' ? s : node ? false : 'the stack has no real node (KRUISE_TS_REAL_NODE=0)';
const NS = 'e2e-ilpj';
/** Stand-ins the harness pushes (harness/images/stand-ins.ts); removed from the node first, so both are pulled. */
const IMAGES = ['ubuntu:latest', 'nginx:1.7.9'];
const WAIT = 180_000;

interface Owner { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }
interface Child { metadata: { name: string; generateName?: string; labels?: Record<string, string>; ownerReferences?: Owner[] }; spec: { image: string; selector?: unknown };
  status?: { desired: number; succeeded?: number } }
interface List { apiVersion: string; metadata: { uid: string; labels?: Record<string, string> }; status?: { desired: number; active: number; completed: number; succeeded: number; completionTime?: string } }
interface NodeImage { status?: { imageStatuses?: Record<string, { tags: { tag: string; phase: string }[] }> } }

const list = (version = 'v1beta1') => getJson<List>([`imagelistpulljobs.${version}.apps.kruise.io`, 'pre', '-n', NS]);
const children = () => getJson<{ items: Child[] }>(['imagepulljobs', '-n', NS]).items;
const phaseOn = (image: string) => {
  const [name, tag] = image.split(':');
  return getJson<NodeImage>(['nodeimage', node!.name]).status?.imageStatuses?.[name!]?.tags.find((t) => t.tag === tag)?.phase;
};

describe('ImageListPullJob on the real node', { skip, timeout: 600_000 }, () => {
  before(async () => {
    await eventually('the daemon pod Running on the real node', () => getJson<{ items: { spec: { nodeName?: string }; status: { phase?: string } }[] }>(['pods', '-n', 'kruise-daemon', '-l', 'control-plane=daemon'])
      .items.some((p) => p.spec.nodeName === node!.name && p.status.phase === 'Running'), 240_000);
    await eventually(`NodeImage ${node!.name}`, () => kubectl(['get', 'nodeimage', node!.name]).code === 0, 120_000);
    if (node?.containerd?.socket) {
      for (const image of IMAGES) {
        try {
          execFileSync('ctr', ['-a', node.containerd.socket, '-n', 'k8s.io', 'images', 'rm', `docker.io/library/${image}`], { stdio: 'ignore' });
        } catch { /* not there */ }
      }
    }
    kubectlOk(['create', 'namespace', NS]);
  });
  after(() => {
    kubectl(['delete', 'imagelistpulljobs', '--all', '-n', NS, '--wait=false']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('a bad list is refused by the validating webhook with upstream\'s reason', () => {
    const r = kubectl(['create', '-n', NS, '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImageListPullJob', metadata: { name: 'bad' },
      spec: { images: ['busybox:1.35.0', 'busybox:1.35.0'], completionPolicy: { type: 'Always' } } }));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /admission webhook "vimagelistpulljob-v1beta1.kb.io" denied the request: .*images cannot have duplicate values/);
  });

  it('two images: one child each, owned by the list; both pulled on the node; the list completes; both versions list it', async () => {
    kubectlOk(['create', '-n', NS, '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob', metadata: { name: 'pre' },
      spec: { images: IMAGES, selector: { names: [node!.name] }, completionPolicy: { type: 'Always' } } }));
    const uid = list().metadata.uid;
    // Defaults from the mutating webhook.
    const spec = getJson<{ spec: Record<string, unknown> }>(['imagelistpulljob', 'pre', '-n', NS]).spec;
    assert.deepEqual(spec.pullPolicy, { timeoutSeconds: 600, backoffLimit: 3 });

    await eventually('one child per image', () => children().length === 2, 60_000);
    const cs = children();
    assert.deepEqual(cs.map((c) => c.spec.image).sort(), [...IMAGES].sort());
    const hash = list().metadata.labels?.['controller-revision-hash'];
    assert.ok(hash, 'the list carries its template hash');
    for (const c of cs) {
      assert.equal(c.metadata.generateName, 'pre-');
      assert.equal(c.metadata.labels?.['controller-revision-hash'], hash);
      assert.deepEqual(c.metadata.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob', name: 'pre', uid, controller: true, blockOwnerDeletion: true }]);
      assert.deepEqual(c.spec.selector, { names: [node!.name] });
    }

    for (const image of IMAGES) await eventually(`${image} Succeeded on ${node!.name}`, () => phaseOn(image) === 'Succeeded', WAIT);
    if (node?.containerd?.socket) {
      const images = execFileSync('ctr', ['-a', node.containerd.socket, '-n', 'k8s.io', 'images', 'ls', '-q'], { encoding: 'utf8' });
      for (const image of IMAGES) assert.ok(images.split('\n').includes(`docker.io/library/${image}`), `${image} is in the node's containerd`);
    }
    const st = await eventually('the list completes', () => { const l = list(); return l.status?.completionTime ? l.status : undefined; }, WAIT);
    assert.deepEqual([st.desired, st.completed, st.succeeded, st.active], [2, 2, 2, 0]);

    for (const version of ['v1alpha1', 'v1beta1']) {
      assert.equal(list(version).apiVersion, `apps.kruise.io/${version}`);
      const lines = kubectlOk(['get', `imagelistpulljobs.${version}.apps.kruise.io`, '-n', NS]).trim().split('\n');
      assert.match(lines[0]!, /^NAME\s+TOTAL\s+SUCCEEDED\s+COMPLETED\s+AGE$/, version);
      assert.match(lines[1]!, /^pre\s+2\s+2\s+2\s+/, version);
    }
  });

  it('deleting the list deletes its children (garbage collection)', async () => {
    kubectlOk(['delete', 'imagelistpulljob', 'pre', '-n', NS, '--wait=false']);
    await eventually('children gone', () => children().length === 0, 120_000);
    await eventually('list gone', () => kubectl(['get', 'imagelistpulljob', 'pre', '-n', NS]).code !== 0, 60_000);
  });
});
