import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container, Pod } from '../../api/meta.js';
import type { SidecarContainer, SidecarSet } from '../../api/sidecarset.js';
import { envOf, makeCtx, pod1, sidecarSet1, sidecarSet3 } from './fixtures.js';
import { injectSidecars } from './index.js';
import { containerNameFromFieldPath } from './share.js';

const mountsOf = (pod: Pod, name: string) => pod.spec!.containers.find((c) => c.name === name)?.volumeMounts?.map((m) => m.mountPath);

const shareCases: { name: string; app: Container; own?: Container['volumeMounts']; wantMounts: string[]; wantEnv: string[] }[] = [
  {
    name: 'shared mounts are appended after the sidecar own ones, own mountPath wins',
    app: { name: 'nginx', image: 'n', volumeMounts: [{ name: 'volume-a', mountPath: '/a/b' }, { name: 'volume-b', mountPath: '/e/f' }] },
    wantMounts: ['/a/b', '/e/f'],
    wantEnv: ['IS_INJECTED'],
  },
  {
    name: 'subPathExpr variables copy the source container env vars, missing ones ignored',
    app: {
      name: 'nginx', image: 'n',
      env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'OTHER', value: 'x' }],
      volumeMounts: [{ name: 'volume-b', mountPath: '/logs', subPathExpr: '$(POD_NAME)/$(NOPE)' }],
    },
    wantMounts: ['/a/b', '/logs'],
    wantEnv: ['IS_INJECTED', 'POD_NAME'],
  },
  {
    name: 'the service-account token mount is shared like any other',
    app: { name: 'nginx', image: 'n', volumeMounts: [{ name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }] },
    wantMounts: ['/a/b', '/var/run/secrets/kubernetes.io/serviceaccount'],
    wantEnv: ['IS_INJECTED'],
  },
  {
    name: 'later duplicates of a mountPath are dropped',
    app: { name: 'nginx', image: 'n', volumeMounts: [{ name: 'v1', mountPath: '/x' }, { name: 'v2', mountPath: '/x' }] },
    wantMounts: ['/a/b', '/x'],
    wantEnv: ['IS_INJECTED'],
  },
];
for (const tc of shareCases) {
  test(`${tc.name} (TestPodVolumeMountsAppend)`, () => {
    const pod = pod1();
    pod.spec!.containers = [tc.app];
    const out = injectSidecars(pod, makeCtx([sidecarSet3()]));
    assert.deepEqual(mountsOf(out, 'cold-sidecar'), tc.wantMounts);
    assert.deepEqual(envOf(out, 'cold-sidecar').map((e) => e.name), tc.wantEnv);
  });
}

test('containers already carrying IS_INJECTED=true are not share sources', () => {
  const pod = pod1();
  pod.spec!.containers.push({ name: 'old-sidecar', image: 'o', env: [{ name: 'IS_INJECTED', value: 'true' }], volumeMounts: [{ name: 'volume-b', mountPath: '/only-sidecar' }] });
  assert.deepEqual(mountsOf(injectSidecars(pod, makeCtx([sidecarSet3()])), 'cold-sidecar'), ['/a/b', '/e/f']);
});

test('shared volumes are not added to the pod a second time', () => {
  const out = injectSidecars(pod1(), makeCtx([sidecarSet3()]));
  assert.deepEqual(out.spec!.volumes!.map((v) => v.name), ['volume-a', 'volume-b']);
});

const transferSet = (transfer: SidecarContainer['transferEnv'], env?: Container['env']): SidecarSet => {
  const s = sidecarSet1();
  s.metadata!.name = 'sidecarset-transfer';
  s.spec!.initContainers = [{ name: 'init-t', image: 'x', transferEnv: transfer }];
  s.spec!.containers = [{ name: 'sidecar-t', image: 'x', transferEnv: transfer, ...(env ? { env } : {}) }];
  return s;
};

test('transferEnv copies the named env after IS_INJECTED into init containers and containers (TestSidecarSetTransferEnv)', () => {
  const out = injectSidecars(pod1(), makeCtx([transferSet([{ sourceContainerName: 'nginx', envName: 'hello2' }])]));
  const want = [{ name: 'IS_INJECTED', value: 'true' }, { name: 'hello2', value: 'world2' }];
  assert.deepEqual(envOf(out, 'init-t', true), want);
  assert.deepEqual(envOf(out, 'sidecar-t'), want);
});

test('transferEnv envNames are taken in sorted order and missing ones skipped', () => {
  const out = injectSidecars(pod1(), makeCtx([transferSet([{ sourceContainerName: 'nginx', envNames: ['hello2', 'missing', 'hello1'] }])]));
  assert.deepEqual(envOf(out, 'sidecar-t').map((e) => e.name), ['IS_INJECTED', 'hello1', 'hello2']);
});

test('the sidecar own env wins over a transferred one, and IS_INJECTED is appended even if already there', () => {
  const own = [{ name: 'hello2', value: 'mine' }, { name: 'IS_INJECTED', value: 'true' }];
  const out = injectSidecars(pod1(), makeCtx([transferSet([{ sourceContainerName: 'nginx', envName: 'hello2' }], own)]));
  assert.deepEqual(envOf(out, 'sidecar-t'), [...own, { name: 'IS_INJECTED', value: 'true' }]);
});

test('sourceContainerNameFrom reads the source container name from a pod label', () => {
  const pod = pod1();
  pod.metadata!.labels!['app.kubernetes.io/main'] = 'nginx';
  const set = transferSet([{ sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['app.kubernetes.io/main']" } }, envName: 'hello1' }]);
  assert.deepEqual(envOf(injectSidecars(pod, makeCtx([set])), 'sidecar-t').map((e) => e.name), ['IS_INJECTED', 'hello1']);
});

const fieldPathCases: { name: string; path: string; want: string | undefined }[] = [
  { name: 'a label subscript resolves to the label value', path: "metadata.labels['main']", want: 'nginx' },
  { name: 'an annotation subscript resolves to the annotation value', path: "metadata.annotations['Main-Container']", want: 'nginx' },
  { name: 'a missing label resolves to ""', path: "metadata.labels['absent']", want: '' },
  { name: 'a non-subscripted path is unsupported', path: 'metadata.name', want: undefined },
  { name: 'a subscript on another field is unsupported', path: "spec.containers['x']", want: undefined },
  { name: 'an invalid label key is unsupported', path: "metadata.labels['-bad-']", want: undefined },
];
for (const tc of fieldPathCases) {
  test(`fieldPath: ${tc.name} (TestExtractContainerNameFromFieldPath)`, () => {
    const pod = pod1();
    pod.metadata!.labels = { main: 'nginx' };
    pod.metadata!.annotations = { 'Main-Container': 'nginx' };
    assert.equal(containerNameFromFieldPath(tc.path, pod), tc.want);
  });
}
