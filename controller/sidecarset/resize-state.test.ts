import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { makeSet } from './fixtures.js';
import { infeasibleResize, isResizeApplied, resizePatch } from './resize-state.js';

const podWith = (resources: object, status?: object): Pod => ({
  metadata: { name: 'a' },
  spec: { containers: [{ name: 'sidecar', image: 'b', resources }, { name: 'app', image: 'n', resources: { requests: { cpu: '1' } } }] },
  status: { containerStatuses: [
    { name: 'sidecar', image: 'b', imageID: 'x', ready: true, restartCount: 0, ...(status && { resources: status }) },
    { name: 'app', image: 'n', imageID: 'y', ready: true, restartCount: 0, resources: { requests: { cpu: '2' } } },
  ] },
});
const setWith = (resources: object) => makeSet({ containers: [{ name: 'sidecar', image: 'b', resources }] });

test('resizePatch: the SidecarSet\'s cpu and memory for the named containers, removals as null', () => {
  const pod = podWith({ requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } });
  assert.deepEqual(resizePatch(setWith({ requests: { cpu: '150m', memory: '64Mi' }, limits: { memory: '256Mi' } }), pod, ['sidecar']), {
    spec: { containers: [{ name: 'sidecar', resources: { requests: { cpu: '150m' }, limits: { cpu: null, memory: '256Mi' } } }] },
  });
});

test('resizePatch: null when the spec already has them (equal quantities in another form), or for other containers', () => {
  const pod = podWith({ requests: { cpu: '100m', memory: '64Mi' } });
  assert.equal(resizePatch(setWith({ requests: { cpu: '0.1', memory: '67108864' } }), pod, ['sidecar']), null);
  assert.equal(resizePatch(setWith({ requests: { cpu: '1' } }), pod, ['other']), null);
});

test('isResizeApplied: kubelet reports what the spec asks, for the named containers only; no status resources = nothing to wait for', () => {
  const spec = { requests: { cpu: '100m' }, limits: { memory: '64Mi' } };
  const names = new Set(['sidecar']);
  assert.equal(isResizeApplied(podWith(spec, { requests: { cpu: '100m' }, limits: { memory: '64Mi' } }), names), true, 'applied (app container differs: not ours)');
  assert.equal(isResizeApplied(podWith(spec, { requests: { cpu: '50m' }, limits: { memory: '64Mi' } }), names), false, 'old cpu still');
  assert.equal(isResizeApplied(podWith(spec, { requests: { cpu: '0.1' }, limits: { memory: '67108864' } }), names), true, 'same quantities');
  assert.equal(isResizeApplied(podWith(spec), names), true, 'no resources reported');
  assert.equal(isResizeApplied(podWith(spec, { requests: { cpu: '100m' }, limits: { memory: '64Mi' } }), new Set(['app'])), false, 'the app container is behind');
});

test('infeasibleResize: only PodResizePending=True with reason Infeasible', () => {
  const pod = (conditions: object[]) => ({ ...podWith({}), status: { conditions } }) as Pod;
  assert.equal(infeasibleResize(pod([{ type: 'PodResizePending', status: 'True', reason: 'Infeasible', message: 'too much cpu' }])), 'too much cpu');
  assert.equal(infeasibleResize(pod([{ type: 'PodResizePending', status: 'True', reason: 'Deferred', message: 'later' }])), undefined);
  assert.equal(infeasibleResize(pod([{ type: 'PodResizeInProgress', status: 'True' }])), undefined);
});
