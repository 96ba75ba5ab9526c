import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from '../../api/meta.js';
import { validatePodSpecSubset, type PodSpecSubset } from './pod-spec.js';

const c = (over: Partial<Container> = {}): Container => ({ name: 'app', image: 'busybox', ...over });

describe('validatePodSpecSubset', () => {
  const cases: { name: string; spec: PodSpecSubset; fields: string[] }[] = [
    { name: 'a minimal container is valid', spec: { containers: [c()] }, fields: [] },
    { name: 'an upper-case container name is invalid', spec: { containers: [c({ name: 'App' })] }, fields: ['spec.containers[0].name'] },
    { name: 'a 64-character name is too long', spec: { containers: [c({ name: 'a'.repeat(64) })] }, fields: ['spec.containers[0].name'] },
    { name: 'a name shared by an init and a regular container is a duplicate', spec: { initContainers: [c()], containers: [c()] }, fields: ['spec.containers[0].name'] },
    { name: 'a missing image is required', spec: { containers: [c({ image: undefined })] }, fields: ['spec.containers[0].image'] },
    { name: 'a mount of an undeclared volume is not found', spec: { containers: [c({ volumeMounts: [{ name: 'x', mountPath: '/x' }] })] }, fields: ['spec.containers[0].volumeMounts[0].name'] },
    {
      name: 'two mounts at the same path are not unique',
      spec: { containers: [c({ volumeMounts: [{ name: 'v', mountPath: '/x' }, { name: 'v', mountPath: '/x' }] })], volumes: [{ name: 'v', emptyDir: {} }] },
      fields: ['spec.containers[0].volumeMounts[1].mountPath'],
    },
    { name: 'an env name starting with a digit is invalid', spec: { containers: [c({ env: [{ name: '1X', value: 'y' }] })] }, fields: ['spec.containers[0].env[0].name'] },
    { name: 'port 70000 is out of range', spec: { containers: [c({ ports: [{ containerPort: 70000, protocol: 'TCP' }] })] }, fields: ['spec.containers[0].ports[0].containerPort'] },
    { name: 'protocol HTTP is unsupported', spec: { containers: [c({ ports: [{ containerPort: 80, protocol: 'HTTP' }] })] }, fields: ['spec.containers[0].ports[0].protocol'] },
    { name: 'a probe without a handler is required', spec: { containers: [c({ livenessProbe: { periodSeconds: 10 } })] }, fields: ['spec.containers[0].livenessProbe'] },
    {
      name: 'a probe with two handlers is forbidden',
      spec: { containers: [c({ readinessProbe: { exec: { command: ['true'] }, tcpSocket: { port: 80 } } })] },
      fields: ['spec.containers[0].readinessProbe'],
    },
    {
      name: 'a request above its limit is invalid',
      spec: { containers: [c({ resources: { requests: { cpu: '2' }, limits: { cpu: '1500m' } } })] },
      fields: ['spec.containers[0].resources.requests'],
    },
    { name: 'equal request and limit in different units are fine', spec: { containers: [c({ resources: { requests: { memory: '1Gi' }, limits: { memory: '1024Mi' } } })] }, fields: [] },
    { name: 'restartPolicy on a regular container is forbidden', spec: { containers: [c({ restartPolicy: 'Always' })] }, fields: ['spec.containers[0].restartPolicy'] },
    { name: 'restartPolicy OnFailure on an init container is unsupported', spec: { initContainers: [c({ name: 'i', restartPolicy: 'OnFailure' })], containers: [c()] }, fields: ['spec.initContainers[0].restartPolicy'] },
    { name: 'a volume with two sources is forbidden', spec: { containers: [c()], volumes: [{ name: 'v', emptyDir: {}, hostPath: { path: '/x' } }] }, fields: ['spec.volumes[0]'] },
  ];
  for (const t of cases) it(t.name, () => assert.deepEqual(validatePodSpecSubset(t.spec).map((v) => v.field), t.fields));
});
