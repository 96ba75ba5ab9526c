import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CloneSet } from '../../api/cloneset.js';
import { revisionHash } from '../sidecarset-revision.js';
import { defaultCloneSet } from './defaults.js';
import { equalRevisionData, hashOf, newRevision, revisionData } from './revision.js';

const seed = (): CloneSet => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet',
  metadata: { name: 'busybox', namespace: 'default', uid: 'u1' },
  spec: {
    replicas: 1, selector: { matchLabels: { app: 'hotupgrade' } },
    template: { metadata: { labels: { app: 'hotupgrade' } }, spec: { containers: [{ name: 'busybox', image: 'openkruise/hotupgrade-sample:busybox' }] } },
  },
});

const guestbook = (image: string): CloneSet => ({
  metadata: { name: 'guestbook-clone', namespace: 'default' },
  spec: {
    replicas: 5, selector: { matchLabels: { 'app.kubernetes.io/name': 'guestbook-clone' } },
    template: {
      metadata: { labels: { 'app.kubernetes.io/name': 'guestbook-clone' } },
      spec: { containers: [{ name: 'guestbook', image, imagePullPolicy: 'Always', ports: [{ name: 'http-server', containerPort: 3000 }] }] },
    },
  },
});

describe('CloneSet revisions (spec §6 V1)', () => {
  it('the seed CloneSet after defaulting gives busybox-69478977cd, busybox-69478977cf at collisionCount 1', () => {
    const cs = defaultCloneSet(seed());
    const data = revisionData(cs);
    assert.equal(data, '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"hotupgrade"}},"spec":{"containers":[{"image":"openkruise/hotupgrade-sample:busybox","imagePullPolicy":"Always","name":"busybox","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}');
    const rev = newRevision(cs, 1, 0);
    assert.equal(rev.metadata.name, 'busybox-69478977cd');
    assert.equal(newRevision(cs, 1, 1).metadata.name, 'busybox-69478977cf');
    assert.equal(hashOf(rev.metadata.name), '69478977cd');
    assert.deepEqual(rev.metadata.labels, { app: 'hotupgrade', 'controller.kubernetes.io/hash': '69478977cd' });
    assert.equal(rev.metadata.annotations?.['kruise.io/cloneset-volumeclaimtemplate-hash'], '');
    assert.deepEqual(rev.metadata.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'busybox', uid: 'u1', controller: true, blockOwnerDeletion: true }]);
    assert.equal(revisionHash(data, 0), '69478977cd');
  });

  it('upstream tutorial guestbook: v1 guestbook-clone-64598d67b, v2 guestbook-clone-56dfcdfff9', () => {
    assert.equal(newRevision(defaultCloneSet(guestbook('openkruise/guestbook:v1')), 1, 0).metadata.name, 'guestbook-clone-64598d67b');
    assert.equal(newRevision(defaultCloneSet(guestbook('openkruise/guestbook:v2')), 1, 0).metadata.name, 'guestbook-clone-56dfcdfff9');
  });

  it('normalisation vector: unknown fields dropped, divisor "0", grpc service null, volume defaults → w-68b699c6c6', () => {
    const cs = defaultCloneSet({
      metadata: { name: 'w' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: {
          metadata: { labels: { a: 'b' } },
          spec: {
            volumes: [{ name: 'h', hostPath: { path: '/x' } }, { name: 'e' }],
            containers: [{ name: 'm', image: 'nginx', env: [{ name: 'L', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }], livenessProbe: { grpc: { port: 8080 } }, unknownField: 1 } as never],
          },
        },
      },
    });
    assert.equal(revisionData(cs), '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"a":"b"}},"spec":{"containers":[{"env":[{"name":"L","valueFrom":{"resourceFieldRef":{"divisor":"0","resource":"limits.cpu"}}}],"image":"nginx","imagePullPolicy":"Always","livenessProbe":{"failureThreshold":3,"grpc":{"port":8080,"service":null},"periodSeconds":10,"successThreshold":1,"timeoutSeconds":1},"name":"m","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30,"volumes":[{"hostPath":{"path":"/x","type":""},"name":"h"},{"emptyDir":{},"name":"e"}]}}}}');
    assert.equal(newRevision(cs, 1, 0).metadata.name, 'w-68b699c6c6');
  });

  it('escapes <>& as Go does, and compares stored data canonically', () => {
    const cs = defaultCloneSet(seed());
    cs.spec!.template.metadata!.annotations = { x: 'a<b>&c' };
    const data = revisionData(cs);
    assert.match(data, /"a\\u003cb\\u003e\\u0026c"/);
    const stored = { data: JSON.parse(data) as unknown };
    assert.ok(equalRevisionData(stored, { data }));
    const other = defaultCloneSet(seed());
    assert.ok(!equalRevisionData(stored, { data: revisionData(other) }));
  });
  it('k8s.io/api v0.32.10 fields (v1.9.0) reach the revision data: image volume, pod resources, new security policies, claim names', () => {
    const cs = seed();
    cs.spec!.template.spec!.volumes = [{ name: 'img', image: { reference: 'busybox:1', pullPolicy: 'IfNotPresent' } } as never];
    Object.assign(cs.spec!.template.spec!, {
      resources: { limits: { cpu: '1' } },
      securityContext: { supplementalGroupsPolicy: 'Strict', seLinuxChangePolicy: 'Recursive' },
      resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'gpu-tpl' }],
    });
    cs.spec!.template.spec!.containers[0]!.resources = { claims: [{ name: 'gpu', request: 'r1' }] } as never;
    const t = JSON.parse(revisionData(cs)).spec.template.spec;
    assert.deepEqual(t.volumes, [{ image: { pullPolicy: 'IfNotPresent', reference: 'busybox:1' }, name: 'img' }]);
    assert.deepEqual(t.resources, { limits: { cpu: '1' } });
    assert.deepEqual(t.securityContext, { seLinuxChangePolicy: 'Recursive', supplementalGroupsPolicy: 'Strict' });
    assert.deepEqual(t.resourceClaims, [{ name: 'gpu', resourceClaimTemplateName: 'gpu-tpl' }]);
    assert.deepEqual(t.containers[0].resources, { claims: [{ name: 'gpu', request: 'r1' }] });
  });
});
