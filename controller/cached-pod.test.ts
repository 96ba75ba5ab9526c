import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../shared/api/meta.js';
import { cachedPod } from './cached-pod.js';

const full = (): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '9', labels: { app: 'x' }, annotations: { k: 'v' },
    managedFields: [{ manager: 'kubectl' }], creationTimestamp: new Date(0), ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'o', uid: 'o' }] },
  spec: {
    nodeName: 'n1', restartPolicy: 'Never', readinessGates: [{ conditionType: 'G' }], tolerations: [{ key: 't' }], volumes: [{ name: 'v' }],
    containers: [{ name: 'app', image: 'nginx:1', env: [{ name: 'E', value: '1' }], volumeMounts: [{ name: 'v', mountPath: '/v' }],
      resources: { requests: { cpu: '1' } }, resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }], ports: [{ name: 'http', containerPort: 80 }] }],
    initContainers: [{ name: 'side', image: 's:1', restartPolicy: 'Always', command: ['x'] }],
  },
  status: {
    phase: 'Running', podIP: '10.0.0.1', qosClass: 'BestEffort', conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: [{ name: 'app', image: 'nginx:1', imageID: 'id', ready: true, restartCount: 2, started: true, containerID: 'c://1',
      state: { running: {} }, lastState: { terminated: { exitCode: 1 } } as never, resources: { requests: { cpu: '1' } }, allocatedResources: { cpu: '1' } }],
  },
});

test('the cached pod keeps what the controllers read and nothing else', () => {
  const pod = full();
  assert.deepEqual(cachedPod(pod), {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '9', labels: { app: 'x' }, annotations: { k: 'v' },
      creationTimestamp: new Date(0), ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'o', uid: 'o' }] },
    spec: { nodeName: 'n1', restartPolicy: 'Never', readinessGates: [{ conditionType: 'G' }], containers: [{ name: 'app', image: 'nginx:1', env: [{ name: 'E', value: '1' }],
      resources: { requests: { cpu: '1' } }, resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }], ports: [{ name: 'http', containerPort: 80 }] }],
      initContainers: [{ name: 'side', image: 's:1', restartPolicy: 'Always' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], podIP: '10.0.0.1',
      containerStatuses: [{ name: 'app', image: 'nginx:1', imageID: 'id', ready: true, restartCount: 2, started: true, containerID: 'c://1', state: { running: {} },
        resources: { requests: { cpu: '1' } }, allocatedResources: { cpu: '1' } }] },
  });
  assert.deepEqual(pod, full(), 'the pod passed in is left as it was');
});

test('a pod without spec or status stays without', () => {
  assert.deepEqual(cachedPod({ metadata: { name: 'a' } }), { metadata: { name: 'a' } });
});
