// Starting a worker thread from an entry module that is either bundled JavaScript (the images) or TypeScript source
// run through tsx (tests, `node --import tsx`). On Node 20 a worker does not get the parent's `--import tsx` loader
// hooks, so a `.ts` entry is started by a small bootstrap that registers tsx in the new thread first.
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startWorker(entry: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
