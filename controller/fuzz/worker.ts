// Runs controller fuzz cases `from`, `from + 1`, … in a worker thread, posting each result as it is done, so that the
// parent (run.ts) can tell which case a stall or an out-of-memory crash happened in and carry on after it.
import { parentPort, workerData } from 'node:worker_threads';
import { runCase } from './run-case.js';

const { seed, from, to } = workerData as { seed: number; from: number; to: number };
for (let i = from; i < to; i++) {
  parentPort!.postMessage({ type: 'start', i });
  parentPort!.postMessage({ type: 'done', i, result: await runCase(seed, i) });
}
parentPort!.postMessage({ type: 'finished' });
