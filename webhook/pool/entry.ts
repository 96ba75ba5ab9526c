// Where the admission worker's module is. Bundled (production), worker.mjs sits beside the bundle that inlined this
// file (scripts/bundles.ts builds it next to dist/webhook/main.mjs); from the sources (tests, tsx), worker.ts sits
// beside this file, and shared/worker.ts starts it through tsx.
export { startWorker } from '../../shared/worker.js';

export function workerEntry(metaUrl: string = import.meta.url): URL {
  return metaUrl.endsWith('.ts') ? new URL('./worker.ts', metaUrl) : new URL('./worker.mjs', metaUrl);
}
