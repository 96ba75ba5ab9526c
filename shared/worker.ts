// Starting a worker thread from an entry module that is either bundled JavaScript (the images) or TypeScript source
// run through tsx (tests, `node --import tsx`). A worker does not get the parent's `--import tsx` loader hooks for its
// own entry ("Unknown file extension .ts"), so a `.ts` entry is started by a small bootstrap module that registers
// tsx in the new thread first (tsx resolved from here, so the thread finds it whatever its working directory).
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startWorker(entry: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), options);
}
