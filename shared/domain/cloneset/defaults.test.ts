import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CloneSet } from '../../api/cloneset.js';
import { defaultCloneSet } from './defaults.js';

const bare = (): CloneSet => ({ metadata: { name: 'x' }, spec: { selector: { matchLabels: { a: 'b' } }, template: {
  metadata: { labels: { a: 'b' } },
  spec: { containers: [{ name: 'c', image: 'nginx:1', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '0.5', memory: '1024Mi' } } }], initContainers: [{ name: 'i', image: 'busybox:1.36' }] } } } });

describe('CloneSet defaulting (spec §1.4)', () => {
  it('strategy defaults and template defaults on CREATE', () => {
    const cs = defaultCloneSet(bare());
    assert.equal(cs.spec?.replicas, 1);
    assert.equal(cs.spec?.revisionHistoryLimit, 10);
    assert.deepEqual(cs.spec?.updateStrategy, { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 });
    const spec = cs.spec!.template.spec!;
    assert.deepEqual([spec.dnsPolicy, spec.restartPolicy, spec.schedulerName, spec.terminationGracePeriodSeconds], ['ClusterFirst', 'Always', 'default-scheduler', 30]);
    assert.deepEqual(spec.securityContext, {});
    const c = spec.containers[0]!;
    assert.equal(c.imagePullPolicy, 'Always', 'CloneSet containers always default to Always');
    assert.equal(spec.initContainers![0]!.imagePullPolicy, 'IfNotPresent', 'init containers follow the tag rule');
    assert.equal(c.ports![0]!.protocol, 'TCP');
    assert.deepEqual(c.resources?.limits, { cpu: '500m', memory: '1Gi' });
    assert.equal(cs.spec!.template.metadata?.creationTimestamp, undefined);
  });

  it('InPlace types get inPlaceUpdateStrategy {}', () => {
    const cs = bare();
    cs.spec!.updateStrategy = { type: 'InPlaceIfPossible' };
    assert.deepEqual(defaultCloneSet(cs).spec?.updateStrategy?.inPlaceUpdateStrategy, {});
  });

  it('UPDATE leaves an unchanged template alone and defaults a changed one', () => {
    const old = bare();
    assert.equal(defaultCloneSet(bare(), old).spec!.template.spec!.dnsPolicy, undefined);
    const changed = bare();
    changed.spec!.template.spec!.containers[0]!.image = 'nginx:2';
    assert.equal(defaultCloneSet(changed, old).spec!.template.spec!.dnsPolicy, 'ClusterFirst');
  });

  // kruise v1.9.0 apis/apps/defaults/pod.go SetDefaultPodSpec, with Kubernetes 1.32's SetDefaults_* and types.
  it('startupProbe is defaulted in every container list, as SetDefaultPodSpec does', () => {
    const cs = bare();
    const probe = () => ({ httpGet: { port: 80 } });
    const want = { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
    const spec = cs.spec!.template.spec!;
    spec.containers[0]!.startupProbe = probe();
    spec.initContainers![0]!.startupProbe = probe();
    (spec as unknown as Record<string, unknown>).ephemeralContainers = [{ name: 'e', image: 'busybox', startupProbe: probe(), resources: { limits: { cpu: '0.1' } }, lifecycle: { preStop: { httpGet: { port: 1 } } } }];
    const out = defaultCloneSet(cs).spec!.template.spec! as Record<string, any>;
    assert.deepEqual(out.containers[0].startupProbe, want);
    assert.deepEqual(out.initContainers[0].startupProbe, want);
    const e = out.ephemeralContainers[0];
    assert.deepEqual(e.startupProbe, want);
    assert.deepEqual(e.resources, { limits: { cpu: '100m' } });
    assert.deepEqual(e.lifecycle.preStop.httpGet, { port: 1, path: '/', scheme: 'HTTP' });
    assert.equal(e.imagePullPolicy, undefined, 'ephemeral containers do not get SetDefaults_Container');
  });

  it('overhead and volumeClaimTemplates quantities are rounded up to milli scale', () => {
    const cs = bare();
    (cs.spec!.template.spec as unknown as Record<string, unknown>).overhead = { cpu: '0.0001' };
    cs.spec!.volumeClaimTemplates = [{ metadata: { name: 'd' }, spec: { resources: { requests: { storage: '1.5Gi' }, limits: { cpu: '0.0001' } } } }] as never;
    const out = defaultCloneSet(cs).spec! as Record<string, any>;
    assert.deepEqual(out.template.spec.overhead, { cpu: '1m' });
    assert.deepEqual(out.volumeClaimTemplates[0].spec.resources, { requests: { storage: '1536Mi' }, limits: { cpu: '1m' } });
    assert.equal(out.volumeClaimTemplates[0].status.phase, 'Pending');
  });

  it('Kubernetes 1.32 fields survive the template round trip: image volumes, pod resources, new security-context fields, claim requests', () => {
    const cs = bare();
    const spec = cs.spec!.template.spec! as Record<string, any>;
    spec.volumes = [{ name: 'art', image: { reference: 'quay.io/my/artifact:v1' } }, { name: 'r', rbd: { monitors: ['m'], image: 'i' } }];
    spec.resources = { limits: { cpu: '1' } };
    spec.securityContext = { supplementalGroupsPolicy: 'Strict', seLinuxChangePolicy: 'Recursive' };
    spec.resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: 't' }];
    spec.containers[0].resources.claims = [{ name: 'gpu', request: 'r1' }];
    const out = defaultCloneSet(cs, undefined, { imageVolume: true }).spec!.template.spec! as Record<string, any>;
    assert.deepEqual(out.volumes, [{ name: 'art', image: { reference: 'quay.io/my/artifact:v1', pullPolicy: 'IfNotPresent' } }, { name: 'r', rbd: { monitors: ['m'], image: 'i' } }]);
    assert.deepEqual(out.resources, { limits: { cpu: '1' } });
    assert.deepEqual(out.securityContext, { supplementalGroupsPolicy: 'Strict', seLinuxChangePolicy: 'Recursive' });
    assert.deepEqual(out.resourceClaims, [{ name: 'gpu', resourceClaimTemplateName: 't' }]);
    assert.deepEqual(out.containers[0].resources.claims, [{ name: 'gpu', request: 'r1' }]);
    const off = defaultCloneSet(cs).spec!.template.spec! as Record<string, any>;
    assert.deepEqual(off.volumes[0], { name: 'art', image: { reference: 'quay.io/my/artifact:v1' } }, 'ImageVolume gate off: no pullPolicy default');
  });
});
