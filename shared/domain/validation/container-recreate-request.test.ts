import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { V1Node } from '@kubernetes/client-node';
import yaml from 'js-yaml';
import type { ContainerRecreateRequest } from '../../api/container-recreate-request.js';
import type { Pod } from '../../api/meta.js';
import { AdmissionDeniedError } from '../../errors.js';
import { mutateContainerRecreateRequest, type CRRMutationContext } from './container-recreate-request.js';

const pod = (over: Partial<Pod> = {}): Pod => ({
  metadata: { name: 'test-pod', namespace: 'default', uid: 'pod-uid-1' },
  spec: {
    nodeName: 'node-1',
    terminationGracePeriodSeconds: 30,
    containers: [
      { name: 'app', image: 'nginx', ports: [{ containerPort: 80 }], lifecycle: { preStop: { httpGet: { path: '/quit', port: 80 } } } },
      { name: 'sidecar1', image: 'busybox' },
    ],
  },
  status: {
    phase: 'Running',
    containerStatuses: [
      { name: 'app', containerID: 'containerd://aaa', restartCount: 2, image: 'nginx', imageID: '', ready: true },
      { name: 'sidecar1', containerID: 'containerd://bbb', restartCount: 0, image: 'busybox', imageID: '', ready: true },
    ],
  },
  ...over,
});
const nodes: Record<string, V1Node> = { 'node-1': { metadata: { name: 'node-1' } }, 'vk-1': { metadata: { name: 'vk-1', labels: { type: 'virtual-kubelet' } } } };
const ctxWith = (p: Pod | undefined, operation = 'CREATE'): CRRMutationContext => ({
  operation,
  getPod: (ns, name) => (p && p.metadata?.namespace === ns && p.metadata?.name === name ? p : undefined),
  getNode: (name) => nodes[name],
});
const crr = (spec: Partial<NonNullable<ContainerRecreateRequest['spec']>> = {}): ContainerRecreateRequest => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'ContainerRecreateRequest',
  metadata: { name: 'crr', namespace: 'default' },
  spec: { podName: 'test-pod', containers: [{ name: 'app' }], ...spec },
});

function denial(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof AdmissionDeniedError, String(err));
    return { code: err.code, message: err.message };
  }
  assert.fail('expected a denial');
}

describe('mutateContainerRecreateRequest on CREATE', () => {
  it('a valid request is filled from the pod', () => {
    const out = mutateContainerRecreateRequest(crr(), undefined, ctxWith(pod()));
    assert.deepEqual(out.metadata?.labels, {
      'crr.apps.kruise.io/active': 'true',
      'crr.apps.kruise.io/node-name': 'node-1',
      'crr.apps.kruise.io/pod-uid': 'pod-uid-1',
    });
    assert.deepEqual(out.spec?.strategy, { failurePolicy: 'Fail', terminationGracePeriodSeconds: 30 });
    assert.deepEqual(out.spec?.containers, [
      { name: 'app', preStop: { httpGet: { path: '/quit', port: 80 } }, ports: [{ containerPort: 80 }], statusContext: { containerID: 'containerd://aaa', restartCount: 2 } },
    ]);
  });

  it('does not modify its input', () => {
    const input = crr();
    mutateContainerRecreateRequest(input, undefined, ctxWith(pod()));
    assert.deepEqual(input, crr());
  });

  it('copies the virtual-kubelet label from the node', () => {
    const out = mutateContainerRecreateRequest(crr(), undefined, ctxWith(pod({ spec: { ...pod().spec!, nodeName: 'vk-1' } })));
    assert.equal(out.metadata?.labels?.type, 'virtual-kubelet');
  });

  it('keeps a user-set grace period', () => {
    const out = mutateContainerRecreateRequest(crr({ strategy: { terminationGracePeriodSeconds: 5, failurePolicy: 'Ignore' } }), undefined, ctxWith(pod()));
    assert.deepEqual(out.spec?.strategy, { terminationGracePeriodSeconds: 5, failurePolicy: 'Ignore' });
  });

  const denials: { name: string; obj: ContainerRecreateRequest; pod?: Pod; code: number; message: string }[] = [
    { name: 'an empty podName is refused', obj: crr({ podName: '' }), code: 400, message: 'podName can not be empty' },
    { name: 'empty containers are refused', obj: crr({ containers: [] }), code: 400, message: 'containers list can not be null' },
    { name: 'a deadline under 3 seconds is refused', obj: crr({ activeDeadlineSeconds: 2 }), code: 400, message: 'activeDeadlineSeconds can not be less than 3s' },
    { name: 'a negative grace period is refused', obj: crr({ strategy: { terminationGracePeriodSeconds: -1 } }), code: 400, message: 'terminationGracePeriodSeconds must be non-negative integer' },
    { name: 'a negative unready grace period is refused', obj: crr({ strategy: { unreadyGracePeriodSeconds: -1 } }), code: 400, message: 'unreadyGracePeriodSeconds must be non-negative integer' },
    { name: 'an unknown failurePolicy is refused', obj: crr({ strategy: { failurePolicy: 'Retry' } }), code: 400, message: 'unknown failurePolicy Retry' },
    { name: 'a missing pod is refused', obj: crr({ podName: 'ghost' }), code: 400, message: 'no found Pod named ghost' },
    { name: 'a finished pod is refused', obj: crr(), pod: pod({ status: { ...pod().status, phase: 'Succeeded' } }), code: 400, message: 'not allowed to recreate containers in an inactive Pod' },
    { name: 'an unscheduled pod is refused', obj: crr(), pod: pod({ spec: { ...pod().spec!, nodeName: undefined } }), code: 400, message: 'not allowed to recreate containers in a pending Pod' },
    {
      // upstream crr_mutating_handler Handle: the Node GET's NotFound error is wrapped as-is
      name: 'a pod on a Node that does not exist is refused with upstream\'s NotFound text',
      obj: crr(),
      pod: pod({ spec: { ...pod().spec!, nodeName: 'gone-node' } }),
      code: 400,
      message: 'failed to get Node gone-node: nodes "gone-node" not found',
    },
    { name: 'user-set read-only fields are refused', obj: crr({ containers: [{ name: 'app', ports: [] }] }), code: 400, message: 'preStop, ports, statusContext in container are ready-only fields' },
    { name: 'a container missing from the pod is refused', obj: crr({ containers: [{ name: 'nope' }] }), code: 400, message: 'container nope not found in Pod' },
    {
      name: 'a container without containerID is refused',
      obj: crr(),
      pod: pod({ status: { phase: 'Running', containerStatuses: [{ name: 'app', containerID: '', restartCount: 0, image: '', imageID: '', ready: false }] } }),
      code: 400,
      message: 'no containerID in app containerStatus, maybe the container has not been initialized',
    },
  ];
  for (const d of denials) {
    it(d.name, () => assert.deepEqual(denial(() => mutateContainerRecreateRequest(d.obj, undefined, ctxWith(d.pod ?? pod()))), { code: d.code, message: d.message }));
  }

  it('a finished pod carrying SidecarTerminated is still allowed', () => {
    const p = pod({ status: { ...pod().status, phase: 'Succeeded', conditions: [{ type: 'SidecarTerminated', status: 'True' }] } });
    assert.equal(mutateContainerRecreateRequest(crr(), undefined, ctxWith(p)).metadata?.labels?.['crr.apps.kruise.io/pod-uid'], 'pod-uid-1');
  });
});

describe('mutateContainerRecreateRequest on UPDATE', () => {
  const stored = mutateContainerRecreateRequest(crr(), undefined, ctxWith(pod()));
  it('an unchanged spec with a status-only change passes through', () => {
    const next = { ...structuredClone(stored), status: { phase: 'Recreating' } };
    assert.equal(mutateContainerRecreateRequest(next, stored, ctxWith(undefined, 'UPDATE')), next);
  });
  it('a changed spec is refused', () => {
    const next = structuredClone(stored);
    next.spec!.activeDeadlineSeconds = 100;
    assert.deepEqual(denial(() => mutateContainerRecreateRequest(next, stored, ctxWith(undefined, 'UPDATE'))), { code: 403, message: 'spec of ContainerRecreateRequest is immutable' });
  });
  it('a changed pod-uid label is refused', () => {
    const next = structuredClone(stored);
    next.metadata!.labels!['crr.apps.kruise.io/pod-uid'] = 'other';
    assert.deepEqual(denial(() => mutateContainerRecreateRequest(next, stored, ctxWith(undefined, 'UPDATE'))), {
      code: 403,
      message: 'not allowed to update immutable label crr.apps.kruise.io/pod-uid',
    });
  });
  it('a set unready-acquired annotation may not change', () => {
    const before = structuredClone(stored);
    before.metadata!.annotations = { 'crr.apps.kruise.io/unready-acquired': '2026-01-01T00:00:00Z' };
    const next = structuredClone(before);
    next.metadata!.annotations!['crr.apps.kruise.io/unready-acquired'] = '2026-01-02T00:00:00Z';
    assert.equal(denial(() => mutateContainerRecreateRequest(next, before, ctxWith(undefined, 'UPDATE'))).code, 403);
  });
});

describe('the CRR example', () => {
  it('08-container-recreate-request.yaml is admitted against a matching pod', () => {
    const doc = yaml.load(readFileSync(new URL('../../../e2e/cluster/examples/08-container-recreate-request.yaml', import.meta.url), 'utf8')) as ContainerRecreateRequest;
    doc.metadata!.namespace = 'default';
    const out = mutateContainerRecreateRequest(doc, undefined, ctxWith(pod()));
    assert.equal(out.spec?.containers.length, 2);
    assert.equal(out.spec?.strategy?.terminationGracePeriodSeconds, 30);
  });
});

describe('namespace fallback', () => {
  it('uses the request namespace when the CRR carries none', () => {
    const obj = crr();
    delete obj.metadata!.namespace;
    const out = mutateContainerRecreateRequest(obj, undefined, { ...ctxWith(pod()), namespace: 'default' });
    assert.equal(out.metadata?.labels?.['crr.apps.kruise.io/node-name'], 'node-1');
  });
});
