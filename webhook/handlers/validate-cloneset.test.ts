// Review N-M2: the podsToDelete pod reads of one CloneSet review are capped, concurrent within a bound, and stop at
// a deadline; the review's reproduction (a 100,000-name UPDATE) costs no GET at all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CloneSet } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import { defaultCloneSet } from '../../shared/domain/cloneset/defaults.js';
import { validateCloneSet } from '../../shared/domain/validation/cloneset.js';
import type { AdmissionRequest } from '../admission/review.js';
import type { AdmissionResult } from '../admission/response.js';
import { resultFromError } from '../admission/route.js';
import { MAX_NEW_PODS_TO_DELETE } from './pods-to-delete.js';
import { validateCloneSetRoute } from './validate-cloneset.js';

const cloneSet = (podsToDelete: string[]): CloneSet => defaultCloneSet({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'web', namespace: 'default', uid: 'cs-uid' },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, scaleStrategy: { podsToDelete },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } },
});

const update = (names: string[], before: string[] = []): AdmissionRequest => ({
  uid: 'u', kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet' }, namespace: 'default', operation: 'UPDATE',
  object: cloneSet(names), oldObject: cloneSet(before),
});

const owned = (name: string): Pod => ({ metadata: { name, namespace: 'default', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'cs-uid', controller: true }] } });

/** A fetchPod taking `ms` per call that counts calls and the most in flight. */
function fetcher(ms: number) {
  const seen = { calls: 0, inFlight: 0, peak: 0 };
  const fetchPod = async (_ns: string, name: string) => {
    seen.calls++;
    seen.peak = Math.max(seen.peak, ++seen.inFlight);
    await new Promise((r) => setTimeout(r, ms));
    seen.inFlight--;
    return owned(name);
  };
  return { seen, fetchPod };
}

async function admit(route: ReturnType<typeof validateCloneSetRoute>, req: AdmissionRequest): Promise<AdmissionResult> {
  try { return await route.handler(req); } catch (err) { return resultFromError(err); }
}

describe('podsToDelete pod reads are bounded (review N-M2)', () => {
  it('100,000 new names: refused with a TooMany error before any GET', async () => {
    const { seen, fetchPod } = fetcher(0);
    const names = Array.from({ length: 100_000 }, (_, i) => `web-${i}`);
    const res = await admit(validateCloneSetRoute({ validate: validateCloneSet, fetchPod }), update(names));
    assert.equal(res.allowed, false);
    assert.equal(res.status?.code, 422);
    assert.match(res.status?.message ?? '', /spec\.scaleStrategy\.podsToDelete: Too many: 100000: must add at most 1000 new names in one request/);
    assert.equal(seen.calls, 0);
  });

  it(`${MAX_NEW_PODS_TO_DELETE} new names (names already listed are not read): checked, 8 at a time`, async () => {
    const { seen, fetchPod } = fetcher(1);
    const names = Array.from({ length: MAX_NEW_PODS_TO_DELETE + 50 }, (_, i) => `web-${i}`);
    const res = await admit(validateCloneSetRoute({ validate: validateCloneSet, fetchPod }), update(names, names.slice(0, 50)));
    assert.equal(res.allowed, true, res.status?.message);
    assert.equal(seen.calls, MAX_NEW_PODS_TO_DELETE);
    assert.equal(seen.peak, 8);
  });

  it('past the deadline: a 500 naming it, and no GET is started afterwards', async () => {
    const { seen, fetchPod } = fetcher(20);
    const names = Array.from({ length: 500 }, (_, i) => `web-${i}`);
    const route = validateCloneSetRoute({ validate: validateCloneSet, fetchPod, podReads: { deadlineMs: 100, inFlight: 4 } });
    const res = await admit(route, update(names));
    assert.equal(res.allowed, false);
    assert.equal(res.status?.code, 500);
    assert.match(res.status?.message ?? '', /checking 500 pods did not finish within 100 ms/);
    const atDeadline = seen.calls;
    assert.ok(atDeadline < 500);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(seen.calls, atDeadline, 'no GET after the review was answered');
  });

  it('an aborted request stops the reads at once', async () => {
    const { seen, fetchPod } = fetcher(20);
    const ac = new AbortController();
    const route = validateCloneSetRoute({ validate: validateCloneSet, fetchPod, podReads: { signal: ac.signal } });
    setTimeout(() => ac.abort(), 30);
    const res = await admit(route, update(Array.from({ length: 500 }, (_, i) => `web-${i}`)));
    assert.equal(res.status?.code, 500);
    const n = seen.calls;
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(seen.calls, n);
  });
});
