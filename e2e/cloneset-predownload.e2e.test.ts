// CloneSet image pre-download on the real node (PreDownloadImageForInPlaceUpdate): while a partition holds every pod at
// the old revision, the new image is pulled onto the node through a NodeImage tag the CloneSet owns; the in-place
// update that follows finds it there (kubelet: "already present on machine", no pull). The gate is off by default, as
// upstream's: unless FEATURE_GATES turns it on for the whole run, the test turns it on with a `helm upgrade` of the
// installed release (as an operator would) and puts the release's own values back afterwards.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../shared/api/meta.js';
import { REAL_NODE_LABEL, REAL_NODE_TAINT } from './harness/node/index.js';
import { releaseServing } from './harness/node/helm-install.js';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';
import { e2eFeatureGates } from './harness/cluster/feature-gates.js';
import { DEPLOYMENT, helmUpgrade, MANAGER_NS, needsPods } from './harness/release.js';

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const gateOn = /(^|,)\s*PreDownloadImageForInPlaceUpdate\s*=\s*true/i.test(e2eFeatureGates);
const skip = needsPods(s);
const NS = 'e2e-cs-predownload';
const NAME = 'predownload';
const OLD = 'busybox:latest';
const NEW = 'busybox:1.36.0';

const pods = () => getJson<{ items: Pod[] }>(['pods', '-n', NS, '-l', `app=${NAME}`]).items.filter((p) => !p.metadata?.deletionTimestamp);
const running = (p: Pod, image: string) => p.status?.phase === 'Running' && (p.status.containerStatuses ?? []).every((c) => c.ready && c.image.endsWith(image));
interface Tag { tag: string; ownerReferences?: { kind: string; name: string }[] }
const nodeImage = () => getJson<{ spec?: { images?: Record<string, { tags: Tag[] }> }; status?: { imageStatuses?: Record<string, { tags: { tag: string; phase: string }[] }> } }>(['nodeimage', node!.name]);

describe('CloneSet image pre-download on the real node', { skip, timeout: 600_000 }, () => {
  /** `helm upgrade` with `extra` values (none: the release's own) and both Deployments rolled out. */
  const upgrade = async (extra?: Record<string, unknown>) => {
    const dir = mkdtempSync(join(tmpdir(), 'kts-predownload-'));
    try {
      const file = join(dir, 'values.json');
      writeFileSync(file, JSON.stringify(extra ?? {}));
      helmUpgrade(s as Exclude<typeof s, string>, ['-f', file]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    for (const d of Object.values(DEPLOYMENT)) {
      await eventually(`${d} rolled out`, () => kubectl(['rollout', 'status', '-n', MANAGER_NS, `deployment/${d}`, '--timeout=50s']).code === 0, 240_000);
    }
    await eventually('every webhook with a caBundle again', () => releaseServing(process.env.KUBECONFIG!), 120_000);
  };

  before(async () => {
    if (!gateOn) await upgrade({ featureGates: `${e2eFeatureGates},PreDownloadImageForInPlaceUpdate=true` });
    await eventually(`NodeImage ${node!.name}`, () => kubectl(['get', 'nodeimage', node!.name]).code === 0, 180_000);
    try {
      execFileSync('ctr', ['-a', node!.containerd!.socket, '-n', 'k8s.io', 'images', 'rm', `docker.io/library/${NEW}`], { stdio: 'ignore' });
    } catch { /* not there */ }
    kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    // Drop the CloneSet's tag: a later test (sidecarset-prepull) needs busybox:1.35.0 absent (this test uses 1.36.0 for that reason) from the node and its
    // NodeImage, and the tag would otherwise stay until its TTL.
    const ni = getJson<{ spec?: { images?: Record<string, { tags: Tag[] }> } }>(['nodeimage', node!.name]);
    const image = ni.spec?.images?.busybox;
    if (image) {
      const tags = image.tags.filter((t) => !t.ownerReferences?.some((o) => o.kind === 'CloneSet' && o.name === NAME));
      const op = tags.length > 0 ? { op: 'replace', path: '/spec/images/busybox/tags', value: tags } : { op: 'remove', path: '/spec/images/busybox' };
      kubectl(['patch', 'nodeimage', node!.name, '--type=json', '-p', JSON.stringify([op])]);
    }
    try {
      execFileSync('ctr', ['-a', node!.containerd!.socket, '-n', 'k8s.io', 'images', 'rm', `docker.io/library/${NEW}`], { stdio: 'ignore' });
    } catch { /* not there */ }
    kubectl(['delete', 'clonesets', '--all', '-n', NS, '--wait=false']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
    if (!gateOn) await upgrade();
  });

  it('pulls the new image onto the node of the pods awaiting the update before they are updated, and kubelet then finds it present', async () => {
    kubectlOk(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet',
      metadata: { name: NAME, namespace: NS, annotations: { 'apps.kruise.io/image-predownload-parallelism': '1' } },
      spec: {
        replicas: 4, selector: { matchLabels: { app: NAME } },
        updateStrategy: { type: 'InPlaceIfPossible', partition: 4, maxUnavailable: 1 },
        template: { metadata: { labels: { app: NAME } }, spec: {
          nodeSelector: { [REAL_NODE_LABEL]: 'true' }, tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }],
          terminationGracePeriodSeconds: 1,
          containers: [{ name: 'main', image: OLD, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'] }] } },
      },
    }));
    await eventually('4 pods Running on the real node', () => { const l = pods(); return l.length === 4 && l.every((p) => running(p, OLD)); }, 180_000);

    kubectlOk(['patch', 'clone', NAME, '-n', NS, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: NEW }])]);
    const tag = await eventually(`a ${NEW} tag owned by the CloneSet on the NodeImage`, () => nodeImage().spec?.images?.busybox?.tags
      .find((t) => t.tag === '1.36.0' && t.ownerReferences?.some((o) => o.kind === 'CloneSet' && o.name === NAME)), 60_000);
    assert.ok(tag);
    await eventually('the daemon reports it pulled', () => nodeImage().status?.imageStatuses?.busybox?.tags.some((t) => t.tag === '1.36.0' && t.phase === 'Succeeded'), 120_000);
    assert.ok(pods().every((p) => p.spec?.containers[0]?.image === OLD), 'the partition holds every pod: pre-download updates none');

    kubectlOk(['patch', 'clone', NAME, '-n', NS, '--type=merge', '-p', JSON.stringify({ spec: { updateStrategy: { partition: 0 } } })]);
    const done = await eventually('every pod updated in place and Running on the new image', () => {
      const l = pods();
      return l.length === 4 && l.every((p) => running(p, NEW) && p.status?.containerStatuses?.[0]?.restartCount === 1) && l;
    }, 240_000);
    const first = done[0]!.metadata!.name!;
    const events = kubectlOk(['get', 'events', '-n', NS, '--field-selector', `involvedObject.name=${first}`, '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
    assert.match(events, /Pulled: Container image "busybox:1\.36\.0" already present on machine/, events);
    assert.doesNotMatch(events, /Pulling: Pulling image "busybox:1\.36\.0"/, events);
  });
});
