// Runs seeded fuzz reviews through the production handler table (app.inject, batches of 50) and checks every reply
// with the oracle (oracle.ts). Shared by webhook/fuzz.test.ts and bench/fuzz/run.ts.
import type { FastifyInstance } from 'fastify';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { seededRandom } from '../../shared/testing/random.js';
import { decodeReview } from '../admission/review.js';
import { admissionCaches, staticCache } from '../caches.js';
import { pubSpender } from '../../shared/domain/pub/spend.js';
import { makeRoutes } from '../handlers/index.js';
import type { WebhookRoute } from '../admission/route.js';
import { testApp } from '../test-helpers.js';
import { FUZZ_OBJECTS, FUZZ_POD, FUZZ_WORKLOADSPREAD, generate, type FuzzCase } from './generate.js';
import { quantityDigitsBuilt } from '../../shared/domain/quantity-scale.js';
import { answerConversionReview, decodeConversionReview } from '../conversion/review.js';
import { CONVERSION_DECODERS } from '../conversion/route.js';
import { checkReply, injectionView, quantityDigitBudget, readBudget } from './oracle.js';
import { countReads, ReadBudgetExceeded } from './read-counter.js';
import { testGates } from '../../shared/testing/gates.js';

/** Stored SidecarSets: the validate fixture (sharing disabled) and one sharing the pod's volumes, both selecting app=web. */
const storedSets = (): SidecarSet[] => [
  FUZZ_OBJECTS['/validate-apps-kruise-io-v1alpha1-sidecarset']!.object as SidecarSet,
  {
    metadata: { name: 'share', resourceVersion: '7' },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'share-side', image: 'busybox', podInjectPolicy: 'AfterAppContainer', shareVolumePolicy: { type: 'enabled' }, upgradeStrategy: { upgradeType: 'ColdUpgrade' } }] },
  } as SidecarSet,
];

/** A PUB guarding the fixture pods (selector app=web) with budget left, so /validate-pod reaches the spend. */
const FUZZ_PUB = {
  metadata: { name: 'pub', namespace: 'default', resourceVersion: '1' },
  spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 },
  status: { unavailableAllowed: 1_000_000, currentAvailable: 3, desiredAvailable: 2, totalReplicas: 3 },
};

/** The real spender over an in-memory PUB whose every write succeeds (a fresh copy each time, so records never pile up). */
function fuzzSpender() {
  return pubSpender({
    store: { cached: () => structuredClone(FUZZ_PUB), get: async () => structuredClone(FUZZ_PUB), updateStatus: async (p) => p },
    now: () => Date.parse('2026-01-02T03:04:05Z'), sleep: async () => {}, isConflict: () => false, isNotFound: () => false, message: String,
  });
}

/** The production handler table with every domain function behind it, on static caches. */
export function fuzzRoutes(): WebhookRoute[] {
  const caches = admissionCaches(
    { sidecarSets: staticCache(storedSets() as never[]), namespaces: staticCache([{ metadata: { name: 'default', labels: {} } }]), revisions: staticCache([]), configMaps: staticCache([]), pubs: staticCache([FUZZ_PUB]),
      workloadSpreads: staticCache([FUZZ_WORKLOADSPREAD as never]) },
    { fetchPod: async (_ns, name) => (name === "web-1" ? (structuredClone(FUZZ_POD) as unknown as Pod) : undefined), fetchNode: async (name) => ({ metadata: { name } }),
      // The WorkloadSpread steps' API: the CloneSet `cs` (with a template, for the patch check) and status writes that succeed.
      // Every CloneSet a pod names exists (a missing owner is upstream's 500, §12.1, tested in the handler's unit tests).
      fetchWorkload: async (_g, kind) => (kind === 'CloneSet' ? structuredClone(FUZZ_OBJECTS['/validate-apps-kruise-io-v1alpha1-cloneset']!.object) as never : undefined),
      fetchWorkloadSpread: async () => structuredClone(FUZZ_WORKLOADSPREAD) as never,
      updateWorkloadSpreadStatus: async (ws) => ws },
  );
  const gates = testGates({ ResourceDistributionGate: true, PodUnavailableBudgetUpdateGate: true,
    ResourcesDeletionProtection: true, DeletionProtectionForCRDCascadingGate: true });
  // Cascading counts as the main thread answers them: a count that does not depend on the review's size.
  const countForDeletion = async (q: { what: string }) => (q.what === 'active-pods' ? 0 : 1);
  return makeRoutes({ caches, gates, now: () => new Date('2026-01-02T03:04:05Z'), random: seededRandom(1), spendPub: fuzzSpender().spend, replicaSetOwner: async () => undefined, countForDeletion });
}

export interface FuzzReport {
  seed: number;
  total: number;
  counts: Record<string, number>;
  shapes: Record<string, number>;
  /** Distinct problems (uid-free, first 20) and how often each occurred. */
  problems: Map<string, number>;
  /** Re-sent patched pods, and reviews measured by read count and quantity work. */
  idempotenceChecks: number;
  costChecks: number;
  /** Cost checks per route. */
  costChecksByRoute: Record<string, number>;
}

const BATCH = 50;
/** Every how many reviews of a route one also goes through the read counter (proxies are slow). */
const COST_SAMPLE = 20;
/** Wall-clock allowance per batch: generous, only a stall of seconds trips it (the read count is the real oracle). */
const BATCH_BUDGET_MS = 20_000;

const post = (app: FastifyInstance, c: { path: string; payload: string }) =>
  app.inject({ method: 'POST', url: c.path, payload: c.payload, headers: { 'content-type': 'application/json' } });

/** Fuzzes `total` reviews from `seed`; `progress` is called after each batch with the count done. */
export async function runFuzz(total: number, seed: number, progress?: (done: number) => void): Promise<FuzzReport> {
  const routes = fuzzRoutes();
  const byPath = new Map(routes.map((route) => [route.path, route]));
  const { app } = testApp(routes);
  await app.ready();
  const r = seededRandom(seed);
  const report: FuzzReport = { seed, total, counts: {}, shapes: {}, problems: new Map(), idempotenceChecks: 0, costChecks: 0, costChecksByRoute: {} };
  const note = (c: FuzzCase, problem: string) => {
    const p = `${c.path} (${c.shape}): ${problem}`;
    if (report.problems.has(p) || report.problems.size < 20) report.problems.set(p, (report.problems.get(p) ?? 0) + 1);
  };
  const seenByRoute = new Map<string, number>();
  try {
    for (let i = 0; i < total; i += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, total - i) }, (_, j) => generate(r, i + j));
      const started = performance.now();
      const replies = await Promise.all(batch.map((c) => post(app, c)));
      if (performance.now() - started > BATCH_BUDGET_MS) note(batch[0]!, `a batch of ${batch.length} took ${(performance.now() - started).toFixed(0)} ms`);
      for (let j = 0; j < batch.length; j++) {
        const c = batch[j]!;
        const sent = c.shape === 'random' || c.shape === 'deep' ? parseOrUndefined(c.payload) : (c.body as Record<string, unknown>);
        const verdict = checkReply(c.path, replies[j]!.statusCode, replies[j]!.body, sent);
        report.counts[verdict.outcome] = (report.counts[verdict.outcome] ?? 0) + 1;
        report.shapes[c.shape] = (report.shapes[c.shape] ?? 0) + 1;
        if (verdict.problem) note(c, verdict.problem);
        if (replies[j]!.statusCode !== 200) continue;
        const seen = seenByRoute.get(c.path) ?? 0;
        seenByRoute.set(c.path, seen + 1);
        if (seen % COST_SAMPLE === 0 && sent) {
          report.costChecks++;
          report.costChecksByRoute[c.path] = (report.costChecksByRoute[c.path] ?? 0) + 1;
          const problem = await costProblem(byPath.get(c.path), sent, c.payload.length);
          if (problem) note(c, problem);
        }
        if (c.path !== '/mutate-pod') continue;
        // A deep case that was patched carries its deep value outside object/oldObject (inside them it is refused):
        // re-sending it says nothing about injection, and its parsed form may be too deep to serialise again.
        if (verdict.patched !== undefined && !verdict.problem && c.shape !== 'deep') {
          report.idempotenceChecks++;
          const problem = await idempotenceProblem(app, c, verdict.patched);
          if (problem) note(c, problem);
        }
      }
      progress?.(Math.min(i + BATCH, total));
    }
  } finally {
    await app.close();
  }
  return report;
}

function parseOrUndefined(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined; // Too deep for this side's JSON.parse, or not JSON: the envelope checks need nothing more.
  }
}

/**
 * Re-sends the patched pod as a new CREATE: injection must decide nothing more (same containers, mounts, volumes).
 * Not for deep cases: their `c.body` holds a placeholder string where the payload had the deep value.
 */
async function idempotenceProblem(app: FastifyInstance, c: FuzzCase, patched: unknown): Promise<string | null> {
  const sent = c.body as { apiVersion: string; request: Record<string, unknown> };
  const again = { ...sent, request: { ...sent.request, uid: `${sent.request.uid}-again`, object: patched } };
  const res = await post(app, { path: c.path, payload: JSON.stringify(again) });
  const verdict = checkReply(c.path, res.statusCode, res.body, again);
  if (verdict.problem) return `re-sending the patched pod: ${verdict.problem}`;
  if (verdict.outcome !== '200 allowed' && verdict.outcome !== '200 patched') return `re-sending the patched pod answered ${verdict.outcome}`;
  if (verdict.patched !== undefined && injectionView(verdict.patched) !== injectionView(patched)) return 'injection is not idempotent: the re-sent pod was injected again';
  return null;
}

/**
 * Runs the route's handler (or the conversion) on the review with its objects behind the read counter: reads of the
 * request and digits of quantity work must stay linear in its bytes.
 */
async function costProblem(route: WebhookRoute | undefined, sent: Record<string, unknown>, bytes: number): Promise<string | null> {
  const digitsBefore = quantityDigitsBuilt();
  const reads = readBudget(bytes);
  try {
    if (route) {
      const decoded = decodeReview(sent);
      if (!decoded.ok || typeof decoded.review.request.object !== 'object' || decoded.review.request.object === null) return null;
      const { object, oldObject } = decoded.review.request;
      const counter = countReads({ object, oldObject } as { object: object; oldObject?: object }, reads);
      await route.handler({ ...decoded.review.request, object: counter.value.object, oldObject: counter.value.oldObject });
    } else {
      const decoded = decodeConversionReview(sent);
      if (!decoded.ok) return null;
      const counter = countReads(decoded.request.objects, reads);
      answerConversionReview({ ...decoded, request: { ...decoded.request, objects: counter.value } }, CONVERSION_DECODERS);
    }
  } catch (err) {
    if (err instanceof ReadBudgetExceeded) return `more than ${err.budget} reads of a ${bytes}-byte review: super-linear work`;
  }
  const digits = quantityDigitsBuilt() - digitsBefore;
  if (digits > quantityDigitBudget(bytes)) return `${digits} digits of quantity powers for a ${bytes}-byte review: super-linear quantity work`;
  return null;
}
