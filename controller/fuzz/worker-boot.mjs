// Worker entry for the controller fuzzer: Node 20 does not apply `--import tsx` to a worker's own entry, so this
// plain module registers tsx and then loads the TypeScript worker (controller/fuzz/worker.ts).
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
