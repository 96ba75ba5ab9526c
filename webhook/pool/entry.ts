// Where the admission worker's module is, and how a thread starts it. Bundled (production), worker.mjs sits beside
// the bundle that inlined this file (scripts/bundles.ts builds it next to dist/webhook/main.mjs). From the sources
// (tests, tsx), worker.ts sits beside this file; on Node 20 a worker inherits `--import tsx` but its entry is still
// loaded without tsx's hooks ("Unknown file extension .ts"), so a small ES module registers tsx first and then
// imports the entry.
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function workerEntry(metaUrl: string = import.meta.url): URL {
  return metaUrl.endsWith('.ts') ? new URL('./worker.ts', metaUrl) : new URL('./worker.mjs', metaUrl);
}

export function startWorker(entry: URL, options: WorkerOptions): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), options);
}
