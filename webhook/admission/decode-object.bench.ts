// Micro-benchmark of the decode step on a realistic pod (the hot path), with JSON.parse and structuredClone of the
// same pod for scale: node --import tsx webhook/admission/decode-object.bench.ts
import { decodeObject, PodDecoder, SidecarSetDecoder } from './decode-object.js';
const container = (n: string) => ({ name: n, image: `registry.example.com/team/${n}:1.2.3`, imagePullPolicy: 'IfNotPresent', command: ['/bin/app'], args: ['--port=8080', '--v=2'],
  env: Array.from({ length: 10 }, (_, i) => ({ name: `VAR_${i}`, value: `value-${i}` })).concat([{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } } as never]),
  ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }], resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m', memory: '128Mi' } },
  volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: 'config', mountPath: '/etc/config' }, { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
  livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 }, readinessProbe: { httpGet: { path: '/ready', port: 8080 } }, securityContext: { runAsNonRoot: true } });
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-7d4b9c-abcde', namespace: 'prod', generateName: 'web-7d4b9c-', labels: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`label-${i}`, `v${i}`])),
  annotations: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`example.com/annotation-${i}`, `value ${i}`])), ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c', uid: 'u' }] },
  spec: { initContainers: [container('init')], containers: [container('app'), container('proxy'), container('logger')], volumes: [{ name: 'data', emptyDir: {} }, { name: 'config', configMap: { name: 'cfg' } }, { name: 'kube-api-access', projected: { sources: [] } }],
    imagePullSecrets: [{ name: 'reg' }], nodeName: '', serviceAccountName: 'default', tolerations: [{ key: 'a', operator: 'Exists' }] } };
const json = JSON.stringify(pod);
function bench(name: string, fn: () => void, n = 200_000) {
  for (let i = 0; i < 20_000; i++) fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  console.log(`${name}: ${(Number(process.hrtime.bigint() - t) / n / 1000).toFixed(2)} µs/op`);
}
const ss = { metadata: { name: 's' }, spec: { selector: { matchLabels: { app: 'web' } }, containers: [container('side')], volumes: [{ name: 'data', emptyDir: {} }] } };
console.log(`pod JSON ${json.length} bytes`);
bench('decodeObject(pod)', () => decodeObject(pod, PodDecoder));
bench('JSON.parse(pod) for scale', () => JSON.parse(json));
bench('structuredClone(pod) for scale (mutateByDiff does one)', () => structuredClone(pod), 50_000);
bench('decodeObject(sidecarset, incl. Go decoder emulation)', () => decodeObject(ss, SidecarSetDecoder), 50_000);
