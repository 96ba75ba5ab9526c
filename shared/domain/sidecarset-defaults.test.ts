import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import yaml from 'js-yaml';
import type { SidecarSet } from '../api/sidecarset.js';
import { SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation } from '../api/sidecarset.js';
import { GoJsonTypeError } from './go-json.js';
import { defaultSidecarSet } from './sidecarset-defaults.js';
import { sidecarSetHash } from './sidecarset-hash.js';

const raw = (spec: Record<string, unknown>, annotations?: Record<string, string>): SidecarSet =>
  ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'test-sidecarset', annotations }, spec }) as SidecarSet;

test('defaulting the dns-f example reproduces the upstream mutating-webhook hashes end to end', () => {
  const out = defaultSidecarSet(raw({ containers: [{ name: 'dns-f', image: 'dns:1.0' }] }));
  assert.deepEqual(out.spec!.containers, [{
    name: 'dns-f',
    image: 'dns:1.0',
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
    podInjectPolicy: 'BeforeAppContainer',
    upgradeStrategy: { upgradeType: 'ColdUpgrade' },
    shareVolumePolicy: { type: 'disabled' },
  }]);
  assert.equal(out.metadata!.annotations![SidecarSetHashAnnotation], '6wbd76bd7984x24fb4f44fv9222cw9v9bcf85x766744wddd4zwx927zzz2zb684');
  assert.equal(out.metadata!.annotations![SidecarSetHashWithoutImageAnnotation], '82684vwf9d4cb4wz4vffx4ddfbb47ww4z4wwxdbwb8w2zbb7zvf4524cdd49bv94');
});

test('spec-level defaults: update strategy, history limit, patch policy, revision policy', () => {
  const out = defaultSidecarSet(raw({
    containers: [],
    patchPodMetadata: [{ annotations: { a: 'b' } }, { patchPolicy: 'Overwrite' }],
    injectionStrategy: { revision: { customVersion: 'v1' } },
  }));
  assert.deepEqual(out.spec!.updateStrategy, { type: 'RollingUpdate', maxUnavailable: 1, partition: 0 });
  assert.equal(out.spec!.revisionHistoryLimit, 10);
  assert.deepEqual(out.spec!.patchPodMetadata!.map((p) => p.patchPolicy), ['Retain', 'Overwrite']);
  assert.equal(out.spec!.injectionStrategy!.revision!.policy, 'Always');
});

test('explicit values are not overwritten by defaults', () => {
  const out = defaultSidecarSet(raw({
    updateStrategy: { type: 'NotUpdate', maxUnavailable: '50%', partition: 0 },
    revisionHistoryLimit: 0,
    injectionStrategy: { revision: { policy: 'Partial' } },
    containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'Never', podInjectPolicy: 'AfterAppContainer', shareVolumePolicy: { type: 'enabled' } }],
  }));
  assert.deepEqual(out.spec!.updateStrategy, { type: 'NotUpdate', maxUnavailable: '50%', partition: 0 });
  assert.equal(out.spec!.revisionHistoryLimit, 0);
  assert.equal(out.spec!.injectionStrategy!.revision!.policy, 'Partial');
  const c = out.spec!.containers![0]!;
  assert.equal(c.imagePullPolicy, 'Never');
  assert.equal(c.podInjectPolicy, 'AfterAppContainer');
  assert.deepEqual(c.shareVolumePolicy, { type: 'enabled' });
});

test('no injection strategy revision means none is invented', () => {
  const out = defaultSidecarSet(raw({ containers: [] }));
  assert.equal(out.spec!.injectionStrategy, undefined);
});

test('init containers default to AfterAppContainer, containers to BeforeAppContainer', () => {
  const out = defaultSidecarSet(raw({ initContainers: [{ name: 'i', image: 'x:1' }], containers: [{ name: 'c', image: 'x:1' }] }));
  assert.equal(out.spec!.initContainers![0]!.podInjectPolicy, 'AfterAppContainer');
  assert.equal(out.spec!.containers![0]!.podInjectPolicy, 'BeforeAppContainer');
});

test('container defaults: pull policy from the tag, ports, fieldRefs, quantities, probes and lifecycle', () => {
  const out = defaultSidecarSet(raw({
    containers: [{
      name: 'c',
      image: 'registry:5000/app',
      ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }],
      env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      transferEnv: [{ sourceContainerNameFrom: { fieldRef: { fieldPath: 'metadata.labels[\'x\']' } }, envName: 'E' }],
      resources: { limits: { cpu: '1.5u', memory: '1024Mi' }, requests: { cpu: 0.5 } },
      livenessProbe: { httpGet: { port: 8080 } },
      readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5 },
      startupProbe: { httpGet: { port: 8080 } },
      lifecycle: { preStop: { httpGet: { port: 'http', path: '/stop' } }, postStart: { exec: { command: ['true'] } } },
    }],
  }));
  const c = out.spec!.containers![0]! as any;
  assert.equal(c.imagePullPolicy, 'Always');
  assert.deepEqual(c.ports, [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }]);
  assert.equal(c.env[0].valueFrom.fieldRef.apiVersion, 'v1');
  assert.equal(c.transferEnv[0].sourceContainerNameFrom.fieldRef.apiVersion, 'v1');
  assert.deepEqual(c.resources, { limits: { cpu: '1m', memory: '1Gi' }, requests: { cpu: '500m' } });
  assert.deepEqual(c.livenessProbe, { httpGet: { path: '/', port: 8080, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
  assert.deepEqual(c.readinessProbe, { tcpSocket: { port: 80 }, timeoutSeconds: 1, periodSeconds: 5, successThreshold: 1, failureThreshold: 3 });
  assert.deepEqual(c.startupProbe, { httpGet: { port: 8080 } }, 'startupProbe is not defaulted upstream');
  assert.deepEqual(c.lifecycle, { postStart: { exec: { command: ['true'] } }, preStop: { httpGet: { path: '/stop', port: 'http', scheme: 'HTTP' } } });
});

test('containers come back as Go would re-marshal them: unknown and zero fields gone, structs present', () => {
  const out = defaultSidecarSet(raw({ containers: [{ name: 'c', image: 'x:1', futureField: { a: 1 }, stdin: false, args: [], ports: [{ containerPort: 1, bogus: 1 }] }] }));
  const c = out.spec!.containers![0]! as any;
  assert.equal('futureField' in c, false);
  assert.equal('stdin' in c, false);
  assert.equal('args' in c, false);
  assert.deepEqual(c.ports, [{ containerPort: 1, protocol: 'TCP' }]);
  assert.deepEqual(c.resources, {});
});

test('volume defaults: empty source, modes, hostPath type, downward API and token projection', () => {
  const out = defaultSidecarSet(raw({
    containers: [],
    volumes: [
      { name: 'bare' },
      { name: 'cm', configMap: { name: 'x' } },
      { name: 'sec', secret: { secretName: 's', defaultMode: 256 } },
      { name: 'host', hostPath: { path: '/var/log' } },
      { name: 'dapi', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
      { name: 'proj', projected: { sources: [{ serviceAccountToken: { path: 't' } }, { downwardAPI: { items: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels' } }] } }] } },
    ],
  }));
  assert.deepEqual(out.spec!.volumes, [
    { name: 'bare', emptyDir: {} },
    { name: 'cm', configMap: { name: 'x', defaultMode: 420 } },
    { name: 'sec', secret: { secretName: 's', defaultMode: 256 } },
    { name: 'host', hostPath: { path: '/var/log', type: '' } },
    { name: 'dapi', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }], defaultMode: 420 } },
    {
      name: 'proj',
      projected: {
        sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }, { downwardAPI: { items: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }] } }],
        defaultMode: 420,
      },
    },
  ]);
});

test('stale hash annotations are overwritten and other annotations kept', () => {
  const out = defaultSidecarSet(raw({ containers: [{ name: 'dns-f', image: 'dns:1.0' }] }, { [SidecarSetHashAnnotation]: 'stale', keep: 'me' }));
  assert.equal(out.metadata!.annotations!.keep, 'me');
  assert.equal(out.metadata!.annotations![SidecarSetHashAnnotation], '6wbd76bd7984x24fb4f44fv9222cw9v9bcf85x766744wddd4zwx927zzz2zb684');
});

test('defaulting never mutates its input and is idempotent', () => {
  const input = raw({ containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: '1.5u' } } }], volumes: [{ name: 'v' }] });
  const before = structuredClone(input);
  const once = defaultSidecarSet(input);
  assert.deepEqual(input, before);
  assert.deepEqual(defaultSidecarSet(once), once);
});

test('the annotation equals the hash of the defaulted object', () => {
  const out = defaultSidecarSet(raw({ containers: [{ name: 'c', image: 'x' }], initContainers: [{ name: 'i', image: 'y', restartPolicy: 'Always' }] }));
  assert.equal(out.metadata!.annotations![SidecarSetHashAnnotation], sidecarSetHash(out));
});

// The seed example lives in the read-only reference folder next to the work tree, not in the repository.
const demoPath = new URL('../../e2e/cluster/examples/01-sidecarset-demo.yaml', import.meta.url);
test('examples/01-sidecarset-demo.yaml defaults to a stable hash', () => {
  const demo = yaml.load(readFileSync(demoPath, 'utf8')) as SidecarSet;
  const out = defaultSidecarSet(demo);
  assert.equal(out.spec!.containers![0]!.imagePullPolicy, 'Always', 'busybox has no tag');
  assert.equal(out.metadata!.annotations![SidecarSetHashAnnotation], 'x5wv25bc72cbwfccdw44c4755v2bd7525fdb69b7f244zcf8fc845wz54275f5zd');
  assert.equal(out.metadata!.annotations![SidecarSetHashWithoutImageAnnotation], '49b4cbbdzf8v7b2z6wwcdzd4252cd7b8zv9cbf66wxxxzw444bbbfw82b54f8246');
});

test('a null patchPodMetadata entry is defaulted like the zero struct Go decodes it to', () => {
  const out = defaultSidecarSet(raw({ containers: [], patchPodMetadata: [null] }));
  assert.deepEqual(out.spec!.patchPodMetadata, [{ patchPolicy: 'Retain' }]);
});

test('a containers value that is not a list is refused, as Go decoding would refuse it', () => {
  assert.throws(() => defaultSidecarSet(raw({ containers: { name: 'c' } })), GoJsonTypeError);
});

test('v1.9 container fields survive defaulting: resourcesPolicy (empty expressions dropped) and shareVolumeDevicePolicy', () => {
  const out = defaultSidecarSet({
    metadata: { name: 's' },
    spec: { containers: [{ name: 'c', image: 'i', shareVolumeDevicePolicy: { type: 'enabled' },
      resourcesPolicy: { targetContainersMode: 'max', targetContainersNameRegex: '^app$', resourcesExpr: { requests: { cpu: 'cpu', memory: '' } } } }] },
  });
  const c = out.spec!.containers![0]!;
  assert.deepEqual(c.resourcesPolicy, { targetContainersMode: 'max', targetContainersNameRegex: '^app$', resourcesExpr: { requests: { cpu: 'cpu' } } });
  assert.deepEqual(c.shareVolumeDevicePolicy, { type: 'enabled' });
});
