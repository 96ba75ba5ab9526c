import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { allocationDrift, allocationOf } from './kubelet-resize.js';

const pod = (spec: Record<string, Record<string, string>>, status?: Record<string, Record<string, string>>, running = true): Pod => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'x', resources: spec }] },
  status: { containerStatuses: [{ name: 'c', image: 'x', imageID: '', ready: true, restartCount: 0, ...(running && { state: { running: {} } }), ...(status && { resources: status }) }] },
} as Pod);

test('a running container without reported resources drifts (kwok), one reporting its spec does not, a resized one does', () => {
  const spec = { requests: { cpu: '10m', memory: '16Mi', 'ephemeral-storage': '1Gi' } };
  assert.equal(allocationDrift(pod(spec)), true);
  assert.equal(allocationDrift(pod(spec, { requests: { cpu: '10m', memory: '16Mi' } })), false, 'cpu and memory only');
  assert.equal(allocationDrift(pod({ requests: { cpu: '20m', memory: '16Mi' } }, { requests: { cpu: '10m', memory: '16Mi' } })), true);
  assert.equal(allocationDrift(pod(spec, undefined, false)), false, 'not running: nothing to report yet');
});

test('the reported allocation is the spec cpu and memory, requests also as allocatedResources', () => {
  assert.deepEqual(allocationOf({ name: 'c', resources: { requests: { cpu: '20m', memory: '32Mi' }, limits: { memory: '64Mi' } } }),
    { resources: { requests: { cpu: '20m', memory: '32Mi' }, limits: { memory: '64Mi' } }, allocatedResources: { cpu: '20m', memory: '32Mi' } });
  assert.deepEqual(allocationOf({ name: 'c' }), { resources: {} });
});
