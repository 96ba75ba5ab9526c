// One controller fuzz case, in-process: a fresh FakeCluster with the world and the fuzzed object, the controller's
// reconcile drained over a few rounds. The oracle: no programming error escapes a reconcile (TypeError, RangeError,
// …: what a 500 is to a webhook), and the API calls it makes stay within a linear bound of the object's bytes.
import { seededRandom } from '../../shared/testing/random.js';
import { applyExtremes, pick } from '../../shared/testing/fuzz-extremes.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { TARGETS, WORLD } from './targets.js';

export interface CaseResult {
  controller: string;
  bytes: number;
  calls: number;
  problem?: string;
  /** The object as fuzzed, cut to 300 characters, for the report. */
  shown: string;
}

/**
 * API calls one reconcile round may make for an object of `bytes`: one per 8 bytes, plus a constant for its world and
 * for one bounded batch of work (a CloneSet round creates and reads back up to ~1,000 pods).
 */
export const callBudget = (bytes: number): number => Math.ceil(bytes / 8) + 2_000;

class CallBudgetExceeded extends Error {
  constructor(readonly budget: number) {
    super(`more than ${budget} API calls in one reconcile`);
    this.name = 'CallBudgetExceeded';
  }
}

const ROUNDS = 3;
/** Errors that are bugs, not API failures or refusals: a controller must never throw these on any input. */
const PROGRAMMING_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError];

/** Case `i` of the run with `seed`: its randomness depends on both only, so any case replays alone. */
export async function runCase(seed: number, i: number): Promise<CaseResult> {
  const r = seededRandom((Math.imul(seed, 1_000_003) + i) >>> 0);
  const target = pick(r, TARGETS);
  const object = target.fixture();
  applyExtremes(target.kind, object, r, 'typed');
  const text = JSON.stringify(object);
  const result: CaseResult = { controller: target.controller.name, bytes: text.length, calls: 0, shown: text.slice(0, 300) };
  const cluster = new FakeCluster();
  for (const [res, o] of WORLD) cluster.seed(res, o);
  cluster.seed(target.resource, object);
  const budget = callBudget(text.length);
  let roundStart = 0;
  // Every REST call counts; past the budget within one round the call throws, which ends the round.
  const rest = cluster.rest as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const method of Object.keys(rest)) {
    const inner = rest[method]!.bind(cluster.rest);
    rest[method] = async (...args: unknown[]) => {
      if (++result.calls - roundStart > budget) throw new CallBudgetExceeded(budget);
      return inner(...args);
    };
  }
  const queue = new RecordingQueue();
  const f = fakeDeps(cluster);
  const reconcile = target.controller.setup(f.deps, queue);
  for (let round = 0; round < ROUNDS && !result.problem; round++) {
    queue.add(target.key);
    for (const k of queue.delayed.keys()) queue.add(k);
    queue.delayed.clear();
    try {
      // The budget is per reconcile: a drain runs the key again as its own writes' events come back.
      await queue.drain((key) => { roundStart = result.calls; return reconcile(key, f.ctx); }, 20);
    } catch (err) {
      if (err instanceof CallBudgetExceeded) result.problem = `${err.message} for a ${text.length}-byte ${target.kind}: super-linear API work`;
      else if (PROGRAMMING_ERRORS.some((E) => err instanceof E)) result.problem = `reconcile threw ${(err as Error).name}: ${(err as Error).message.slice(0, 200)}`;
      // Other errors are API failures or refusals the runner would retry with backoff.
    }
    await f.clock.advance(61_000);
  }
  return result;
}
