// The controller fuzzer's driver: cases run in a worker thread with a heap limit, and a case that runs past
// CASE_STALL_MS or exhausts the heap is reported as a problem (naming the case and its seed), the worker replaced,
// and the run continued with the next case. This keeps an unbounded reconcile (e.g. 2^31−1 replicas built in one
// step, review N-H1) from hanging CI; the oracle proper is the call count in run-case.ts. Shared by
// controller/fuzz.test.ts and bench/fuzz/run.ts.
import { startWorker } from '../../shared/worker.js';
import type { CaseResult } from './run-case.js';

export interface ControllerFuzzReport {
  seed: number;
  total: number;
  byController: Record<string, number>;
  /** Largest calls per byte seen, per controller. */
  callsPerByte: Record<string, number>;
  problems: Map<string, number>;
}

/** Only a hang guard: cases take milliseconds; a reconcile stuck for this long is reported, not waited for. */
const CASE_STALL_MS = 30_000;
/** A new worker loads tsx and every controller module first: on a loaded machine that alone can take a while. */
const STARTUP_MS = 180_000;
const HEAP_MB = 768;

export async function runControllerFuzz(total: number, seed: number, progress?: (done: number) => void): Promise<ControllerFuzzReport> {
  const report: ControllerFuzzReport = { seed, total, byController: {}, callsPerByte: {}, problems: new Map() };
  const note = (problem: string) => {
    if (report.problems.has(problem) || report.problems.size < 20) report.problems.set(problem, (report.problems.get(problem) ?? 0) + 1);
  };
  let next = 0;
  while (next < total) {
    next = await runWorker(seed, next, total, (r) => {
      report.byController[r.controller] = (report.byController[r.controller] ?? 0) + 1;
      report.callsPerByte[r.controller] = Math.max(report.callsPerByte[r.controller] ?? 0, r.calls / r.bytes);
      if (r.problem) note(`${r.controller}: ${r.problem}`);
    }, (i, why) => note(`case ${i} (seed ${seed}): ${why}`), progress);
  }
  return report;
}

/** Runs cases from `from` until done or a case fails hard; resolves the index to continue at. */
function runWorker(seed: number, from: number, to: number, onResult: (r: CaseResult) => void, onCrash: (i: number, why: string) => void, progress?: (done: number) => void): Promise<number> {
  return new Promise((resolve) => {
    const worker = startWorker(new URL('./worker.ts', import.meta.url), {
      workerData: { seed, from, to },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    let current = from;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (at: number, why?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (why) onCrash(current, why);
      void worker.terminate();
      resolve(at);
    };
    const arm = (ms = CASE_STALL_MS) => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(current + 1, `no answer within ${ms / 1000} s (replay: runCase(${seed}, ${current}))`), ms);
    };
    arm(STARTUP_MS);
    worker.on('message', (m: { type: string; i: number; result?: CaseResult }) => {
      if (m.type === 'start') { current = m.i; arm(); }
      else if (m.type === 'done') { onResult(m.result!); progress?.(m.i + 1); }
      else if (m.type === 'finished') finish(to);
    });
    worker.on('error', (err) => finish(current + 1, `worker failed: ${err.message.slice(0, 200)} (replay: runCase(${seed}, ${current}))`));
    worker.on('exit', (code) => finish(current + 1, code === 0 ? undefined : `worker exited with ${code} (replay: runCase(${seed}, ${current}))`));
  });
}
