// The admission worker's entry (webhook/pool/pool.ts starts it): exactly makeRoutes' handlers, the ones the CLI and
// the in-thread executor run. Bundled beside the webhook's main.mjs (scripts/bundles.ts); from the sources, the
// worker inherits the main thread's `--import tsx`.
import { makeRoutes } from '../handlers/index.js';
import { runWorker } from './worker-runtime.js';

runWorker(makeRoutes);
