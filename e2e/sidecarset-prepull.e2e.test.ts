// Pre-pull before the in-place sidecar restart on the real node (kubelet v1.34 + containerd, the kruise daemon as a
// pod there): with `kruise-ts.io/sidecarset-prepull: "true"`, a sidecar image change first puts a tag owned by the
// SidecarSet on the node's NodeImage; the daemon pulls it; only then is the pod's sidecar restarted, and kubelet
// finds the image already present. The not-ready window of the sidecar is printed (the loopback registry is fast, so
// this is not the slowed-registry figure the issue asks for).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { eventually, getJson, kubectl, kubectlOk, serves, stack, untilInjected } from './harness/kube.js';
import { buildTestImage, pushImage, startRegistry, trustRegistry, type Registry } from './harness/runtime/index.js';

interface Pod {
  metadata: { name: string; uid: string };
  spec: { nodeName?: string; containers: { name: string; image: string }[] };
  status: { phase?: string; containerStatuses?: { name: string; ready: boolean; restartCount: number; image: string }[] };
}
interface Tag { tag: string; ownerReferences?: { kind: string; name: string }[] }

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const skip = typeof s === 'string' ? s : node ? false : 'the stack has no real node (KRUISE_TS_REAL_NODE=0)';
const NS = 'e2e-scs-prepull';
const SET = 'scs-prepull';
const NEW = 'busybox:1.35.0';

const sidecar = (p: Pod) => p.status.containerStatuses?.find((c) => c.name === 'sidecar');
const pod = () => getJson<Pod>(['pod', 'prepull-0', '-n', NS]);
const kubeletEvents = () => kubectlOk(['get', 'events', '-n', NS, '--field-selector', 'involvedObject.name=prepull-0', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);

describe('SidecarSet pre-pull before the in-place restart on the real node', { skip, timeout: 600_000 }, () => {
  const name = node?.name ?? '';
  before(async () => {
    assert.ok(typeof s !== 'string' && await serves(s, '/mutate-pod'), 'the manager serves /mutate-pod');
    await eventually('the daemon pod Running on the real node', () => getJson<{ items: (Pod & { status: { phase?: string } })[] }>(['pods', '-n', 'kruise-daemon', '-l', 'control-plane=daemon'])
      .items.some((p) => p.spec.nodeName === name && p.status.phase === 'Running'), 240_000);
    await eventually(`NodeImage ${name}`, () => kubectl(['get', 'nodeimage', name]).code === 0, 120_000);
    // The new image must not be on the node yet, or there is nothing to pull ahead.
    if (node?.containerd?.socket) {
      try {
        execFileSync('ctr', ['-a', node.containerd.socket, '-n', 'k8s.io', 'images', 'rm', `docker.io/library/${NEW}`], { stdio: 'ignore' });
      } catch { /* not there */ }
    }
    kubectlOk(['create', 'namespace', NS]);
    kubectlOk(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: SET, annotations: { 'kruise-ts.io/sidecarset-prepull': 'true' } },
      spec: { namespace: NS, selector: { matchLabels: { app: 'prepull-demo' } }, updateStrategy: { maxUnavailable: 1 },
        // IfNotPresent: with `busybox` (latest) the default would be Always, and kubelet would pull again anyway.
        containers: [{ name: 'sidecar', image: 'busybox', imagePullPolicy: 'IfNotPresent', command: ['sleep', '999d'] }] },
    }));
    await untilInjected(NS, { app: 'prepull-demo' }, 'sidecar', 'busybox');
    kubectlOk(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'prepull-0', namespace: NS, labels: { app: 'prepull-demo' } },
      spec: { nodeName: name, terminationGracePeriodSeconds: 1, containers: [{ name: 'app', image: 'busybox', command: ['sleep', '999d'] }] },
    }));
    await eventually('prepull-0 2/2 Running', () => { const p = pod(); return p.status.phase === 'Running' && p.status.containerStatuses?.every((c) => c.ready); }, 180_000);
  });
  after(() => {
    kubectl(['delete', 'sidecarset', SET, '--wait=false']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('a new sidecar image is pulled onto the node through a NodeImage tag the SidecarSet owns, then the sidecar restarts with it already present', async () => {
    const before = pod();
    const t0 = Date.now();
    kubectlOk(['patch', 'sidecarset', SET, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/containers/0/image', value: NEW }])]);
    const tag = await eventually('a busybox:1.35.0 tag owned by the SidecarSet on the NodeImage', () =>
      getJson<{ spec?: { images?: Record<string, { tags: Tag[] }> } }>(['nodeimage', name]).spec?.images?.busybox?.tags
        .find((t) => t.tag === '1.35.0' && t.ownerReferences?.some((o) => o.kind === 'SidecarSet' && o.name === SET)), 60_000);
    assert.ok(tag);
    let notReadySince: number | undefined;
    let notReadyMs = 0;
    let pulledBeforeRestart: boolean | undefined;
    const pulled = () => getJson<{ status?: { imageStatuses?: Record<string, { tags: { tag: string; phase: string }[] }> } }>(['nodeimage', name])
      .status?.imageStatuses?.busybox?.tags.some((t) => t.tag === '1.35.0' && t.phase === 'Succeeded') ?? false;
    await eventually('the sidecar restarted on busybox:1.35.0 and Ready', () => {
      const p = pod();
      const c = sidecar(p);
      if (pulledBeforeRestart === undefined && p.spec.containers.find((x) => x.name === 'sidecar')?.image === NEW) pulledBeforeRestart = pulled();
      if (c && !c.ready && notReadySince === undefined) notReadySince = Date.now();
      if (c && c.ready && notReadySince !== undefined && !notReadyMs) notReadyMs = Date.now() - notReadySince;
      return c?.ready && c.image.endsWith(NEW) && c.restartCount === sidecar(before)!.restartCount + 1;
    }, 240_000);
    const after = pod();
    assert.equal(after.metadata.uid, before.metadata.uid, 'same pod');
    assert.equal(pulledBeforeRestart, true, 'the NodeImage reported the image pulled when the pod first showed the new image');
    const events = kubeletEvents();
    assert.match(events, /Pulled: Container image "busybox:1\.35\.0" already present on machine/, events);
    // Kubelet did not pull: the daemon had.
    assert.doesNotMatch(events, /Pulling: Pulling image "busybox:1\.35\.0"/, events);
    process.stdout.write(`# pre-pull: edit to sidecar Ready on ${NEW} ${Date.now() - t0} ms; sidecar not Ready for ~${notReadyMs} ms (polled every 250 ms)\n`);
  });
  it('a private sidecar image is pre-pulled with the SidecarSet imagePullSecrets, copied for the daemon, though the pod itself has no pull secret', async () => {
    assert.ok(node?.containerd?.dir, 'the real node records its containerd dir');
    // An htpasswd registry on loopback, trusted by the node's containerd (hosts.toml is read per pull).
    const dir = mkdtempSync('/tmp/kts-private-reg-');
    const auth = { username: 'prepull', password: `pw-${process.pid}` };
    let registry: Registry | undefined;
    try {
      registry = await startRegistry({ dir, auth });
      trustRegistry(node.containerd.dir, registry.host);
      const ref = await pushImage(await buildTestImage({ name: 'private/sidecar', tag: 'v2', allApplets: true, cmd: ['sleep', '999d'], files: { '/private': 'v2\n' } }), registry.host, auth);
      const config = { auths: { [registry.host]: { username: auth.username, password: auth.password, auth: Buffer.from(`${auth.username}:${auth.password}`).toString('base64') } } };
      kubectlOk(['create', 'secret', 'generic', 'regcred', '-n', NS, '--type=kubernetes.io/dockerconfigjson', `--from-literal=.dockerconfigjson=${JSON.stringify(config)}`]);
      const restarts = sidecar(pod())!.restartCount;
      kubectlOk(['patch', 'sidecarset', SET, '--type=json', '-p', JSON.stringify([
        { op: 'add', path: '/spec/imagePullSecrets', value: [{ name: 'regcred' }] },
        { op: 'replace', path: '/spec/containers/0/image', value: ref },
      ])]);
      const imageName = ref.slice(0, ref.lastIndexOf(':'));
      const copy = await eventually('a copy of regcred in kruise-daemon-config referenced by the SidecarSet', () =>
        getJson<{ items: { metadata: { name: string; annotations?: Record<string, string> } }[] }>(['secrets', '-n', 'kruise-daemon-config']).items
          .find((x) => x.metadata.annotations?.['imagepulljobs.kruise.io/references'] === `${NS}/SidecarSet:${SET}`), 60_000);
      const listed = await eventually('the NodeImage lists the copy for the private image', () =>
        getJson<{ spec?: { images?: Record<string, { pullSecrets?: { namespace: string; name: string }[] }> } }>(['nodeimage', name]).spec?.images?.[imageName]?.pullSecrets
          ?.some((x) => x.namespace === 'kruise-daemon-config' && x.name === copy!.metadata.name), 60_000);
      assert.ok(listed);
      await eventually('the daemon pulled the private image (NodeImage tag Succeeded)', () =>
        getJson<{ status?: { imageStatuses?: Record<string, { tags: { tag: string; phase: string }[] }> } }>(['nodeimage', name])
          .status?.imageStatuses?.[imageName]?.tags.some((t) => t.tag === 'v2' && t.phase === 'Succeeded'), 120_000);
      const p = await eventually('the sidecar restarted on the private image and Ready', () => {
        const p = pod();
        const c = sidecar(p);
        return c?.ready && c.image === ref && c.restartCount === restarts + 1 ? p : undefined;
      }, 180_000);
      assert.equal((p as unknown as { spec: { imagePullSecrets?: unknown[] } }).spec.imagePullSecrets, undefined, 'the pod has no pull secret: kubelet could not have pulled it');
      await eventually('the copy released once the rollout is over', () =>
        kubectl(['get', 'secret', copy!.metadata.name, '-n', 'kruise-daemon-config']).code !== 0, 60_000);
    } finally {
      await registry?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
