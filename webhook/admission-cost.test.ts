// Admission cost is linear in the request, always (review C1). The review's worst cases (webhook/fuzz/cost-cases.ts)
// go through the production /mutate-pod handler at 0.25, 1 and 3 MiB with four SidecarSets sharing the pod's volumes,
// and the work is measured as reads of the request object (fuzz/read-counter.ts), not as time: reads per byte may not
// grow with the size. The old share.ts scanned a container's env per $(VAR) per mount (reads ∝ mounts × refs × env);
// it blows the read budget at the first size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionDeniedError } from '../shared/errors.js';
import type { AdmissionResult } from './admission/response.js';
import type { AdmissionRequest } from './admission/review.js';
import { resultFromError } from './admission/route.js';
import { admissionCaches, staticCache } from './caches.js';
import { COST_CASES, MiB, podReview, sharingSidecarSets, sized } from './fuzz/cost-cases.js';
import { countReads, ReadBudgetExceeded } from './fuzz/read-counter.js';
import { makeRoutes } from './handlers/index.js';

const caches = admissionCaches(
  { sidecarSets: staticCache(sharingSidecarSets(4) as never[]), namespaces: staticCache([{ metadata: { name: 'default', labels: {} } }]), revisions: staticCache([]), configMaps: staticCache([]) },
  { fetchPod: async () => undefined, fetchNode: async () => undefined },
);
const gates = { PodWebhook: true, KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: true, SidecarSetPatchPodMetadataDefaultsAllowed: false, EnableSortSidecarContainerByName: false, PreDownloadImageForInPlaceUpdate: false, ImageVolume: false, WorkloadSpread: true };
const mutatePod = makeRoutes({ caches, gates, now: () => new Date('2026-01-02T03:04:05Z'), random: () => 0.5 }).find((r) => r.path === '/mutate-pod')!;

/** The handler's answer as the route gives it: a thrown denial becomes its refusal; anything else propagates. */
async function admit(req: AdmissionRequest): Promise<AdmissionResult> {
  try {
    return await mutatePod.handler(req);
  } catch (err) {
    if (err instanceof AdmissionDeniedError) return resultFromError(err);
    throw err;
  }
}

/**
 * Reads per byte of review allowed at any size. A linear pipeline (decode, match, inject, diff) reads each node of the
 * pod a few times: about 0.1–0.3 reads per byte here. The old C1 code needed hundreds per byte at 0.25 MiB.
 */
const READS_PER_BYTE_BUDGET = 4;
/** How much reads per byte may grow from 0.25 MiB to 3 MiB (12× the bytes): linear work keeps it about flat. */
const GROWTH_ALLOWED = 1.5;

for (const c of COST_CASES) {
  test(`/mutate-pod work grows linearly with the request: ${c.name} at 0.25, 1 and 3 MiB`, async () => {
    const perByte: number[] = [];
    const outcomes: string[] = [];
    for (const mib of [0.25, 1, 3]) {
      const { pod, body } = sized(c, mib * MiB);
      const counter = countReads(pod, READS_PER_BYTE_BUDGET * body.length);
      const req = { ...podReview(counter.value).request } as unknown as AdmissionRequest;
      const r = await admit(req).catch((err: unknown) => {
        if (err instanceof ReadBudgetExceeded) assert.fail(`${mib} MiB: ${err.message} (${READS_PER_BYTE_BUDGET} per byte of ${body.length}): super-linear work`);
        throw err;
      });
      perByte.push(counter.reads() / body.length);
      outcomes.push(r.allowed ? (r.patch ? 'patched' : 'allowed') : `refused ${r.status?.code}: ${r.status?.message}`);
    }
    console.log(`${c.name} at 0.25/1/3 MiB: reads per byte ${perByte.map((x) => x.toFixed(3)).join(' / ')}; ${outcomes.map((o) => o.slice(0, 60)).join(' / ')}`);
    assert.ok(perByte[2]! <= perByte[0]! * GROWTH_ALLOWED, `reads per byte grew from ${perByte[0]} to ${perByte[2]}`);
    for (const o of outcomes) assert.ok(o === 'patched' || o.startsWith('refused 400: pod(default/cost): sidecars with shareVolumePolicy'), o);
  });
}

// Not imported from share.ts (MAX_SHARED_ENTRIES), so that this file also runs against the code before the bound.
test(`sharing more than 50,000 entries is refused with 400 naming the cause, below it the pod is patched`, async () => {
  // 4 sharing sidecars × (mounts + referenced env vars): the C1 shape at 3 MiB takes 4 × ~27,000; at 0.25 MiB 4 × ~3,000.
  const run = async (mib: number) => {
    const { pod } = sized(COST_CASES[0]!, mib * MiB);
    return admit({ ...podReview(pod).request } as unknown as AdmissionRequest);
  };
  assert.equal((await run(0.25)).patch !== undefined, true);
  const refused = await run(3);
  assert.deepEqual([refused.allowed, refused.status?.code], [false, 400]);
  assert.match(refused.status!.message!, /would take more than 50000 volumeMounts, volumeDevices and env vars/);
});
