// Running one tag's pull (spec/daemon-and-controllers.md §2.4 "Pull worker lifecycle") and a FIFO pool that bounds
// how many run at once (--max-workers-for-pull-image). Time comes from an injected clock so tests run instantly.
import { normalizeImageRef } from '../../shared/domain/image-ref.js';
import type { AuthConfig, Image, ImageService } from '../cri/runtime.js';
import { DEADLINE_MESSAGE, toApiTime, type PullTask } from './plan.js';
import type { ImageTagStatus } from '../../shared/api/node-image.js';

export interface PullClock {
  nowMs(): number;
  /** Resolves after `ms`, or early (without throwing) when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realClock: PullClock = {
  nowMs: () => Date.now(),
  sleep: (ms, signal) => new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => { clearTimeout(t); signal.removeEventListener('abort', done); resolve(); };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  }),
};

/** Spec §1.3: every PullImage the daemon sends carries this sandbox annotation, whatever the NodeImage says. */
export const PULLING_IMAGE_BY_ANNOTATION = 'apps.kruise.io/pulling-image-by';

export const BACKOFF_INITIAL_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
/** The CRI deadline trails our own timer so a timed-out attempt reports the puller's message, not gRPC's. */
const CRI_DEADLINE_MARGIN_MS = 1_000;

export interface PullOutcome {
  ok: boolean;
  status: ImageTagStatus;
  elapsedMs: number;
  error?: string;
}

export interface RunPullDeps {
  images: ImageService;
  clock: PullClock;
  /** Credentials to try in order, captured when the worker was created; empty → anonymous. */
  auths: AuthConfig[];
  publish(status: ImageTagStatus): void;
}

class StoppedError extends Error {}

/** Go's utilerrors.NewAggregate(...).Error(). */
const aggregate = (msgs: string[]): string => (msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`);

/**
 * Runs one attempt against stop and the per-attempt timeout, like upstream's select. Whichever ends it first
 * also aborts the signal handed to `run`, so the RPC still in flight is cancelled on the wire, not left running.
 */
async function race<T>(run: (signal: AbortSignal) => Promise<T>, ref: string, signal: AbortSignal, clock: PullClock, timeoutMs: number): Promise<T> {
  const timer = new AbortController();
  const call = new AbortController();
  const onStop = () => timer.abort();
  signal.addEventListener('abort', onStop, { once: true });
  const expired = clock.sleep(timeoutMs, timer.signal).then(() => {
    throw signal.aborted ? new StoppedError(`pulling image ${ref} is stopped`) : new Error(`pulling image ${ref} is canceled`);
  });
  const attempt = run(call.signal);
  try {
    return await Promise.race([attempt, expired]);
  } finally {
    signal.removeEventListener('abort', onStop);
    timer.abort();
    call.abort();
    expired.catch(() => undefined);
    attempt.catch(() => undefined);
  }
}

/** The runtime's image whose repoTags include (name, tag) once normalised, as upstream's ContainsImage. */
async function findImage(images: ImageService, task: PullTask, signal?: AbortSignal): Promise<Image | undefined> {
  for (const img of await images.listImages(undefined, signal ? { signal } : undefined)) {
    for (const t of img.repoTags) {
      try {
        const n = normalizeImageRef(t);
        if (n.name === task.name && n.tag === task.tag) return img;
      } catch { /* a tag the runtime lists but we cannot parse matches nothing */ }
    }
  }
  return undefined;
}

/** One attempt; the caller races it against stop and the per-attempt timeout, like upstream's select. */
async function attempt(task: PullTask, deps: RunPullDeps, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const ref = `${task.name}:${task.tag}`;
  if (task.ifNotPresent && (await findImage(deps.images, task, signal))) return;
  const sandboxConfig = {
    labels: { ...task.sandboxConfig?.labels },
    annotations: { ...task.sandboxConfig?.annotations, [PULLING_IMAGE_BY_ANNOTATION]: 'kruise-daemon' },
  };
  const pull = (auth?: AuthConfig) => {
    const req = { image: ref, ...(auth ? { auth } : {}), sandboxConfig };
    return deps.images.pullImage(req, { timeoutMs: timeoutMs + CRI_DEADLINE_MARGIN_MS, signal });
  };
  if (deps.auths.length === 0) {
    try {
      await pull();
      return;
    } catch (err) {
      throw new Error(`Failed to pull image reference "${ref}": ${(err as Error).message}`);
    }
  }
  // Matched credentials are tried in turn; if all fail there is no anonymous fallback (kubelet keyring semantics).
  const errors: string[] = [];
  for (const auth of deps.auths) {
    try {
      await pull(auth);
      return;
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  throw new Error(aggregate(errors));
}

async function imageIdOf(images: ImageService, task: PullTask): Promise<string | undefined> {
  const img = await findImage(images, task).catch(() => undefined);
  return img ? `${task.name}@${img.id}` : undefined;
}

/**
 * Runs attempts 0..backoffLimit. Resolves undefined when stopped through `signal` (a stopped worker never
 * publishes its final status), otherwise the final Succeeded/Failed status, which is also published.
 */
export async function runPull(task: PullTask, deps: RunPullDeps, signal: AbortSignal): Promise<PullOutcome | undefined> {
  const { clock } = deps;
  const start = clock.nowMs();
  const base = { tag: task.tag, version: task.version, startTime: toApiTime(start) };
  deps.publish({ ...base, phase: 'Pulling' });
  const deadline = task.activeDeadlineSeconds ? start + task.activeDeadlineSeconds * 1000 : undefined;
  let step = BACKOFF_INITIAL_MS;
  let lastError = '';
  for (let i = 0; i <= task.backoffLimit; i++) {
    if (signal.aborted) return undefined;
    let timeoutMs = task.timeoutSeconds * 1000;
    if (deadline !== undefined) {
      const left = deadline - clock.nowMs();
      if (left <= 0) {
        lastError = DEADLINE_MESSAGE;
        break;
      }
      timeoutMs = Math.min(timeoutMs, left);
    }
    try {
      await race((s) => attempt(task, deps, timeoutMs, s), `${task.name}:${task.tag}`, signal, clock, timeoutMs);
      const imageID = await imageIdOf(deps.images, task);
      const status: ImageTagStatus = { ...base, phase: 'Succeeded', progress: 100, completionTime: toApiTime(clock.nowMs()), ...(imageID ? { imageID } : {}) };
      if (signal.aborted) return undefined;
      deps.publish(status);
      return { ok: true, status, elapsedMs: clock.nowMs() - start };
    } catch (err) {
      if (err instanceof StoppedError || signal.aborted) return undefined;
      lastError = (err as Error).message;
    }
    // Upstream sleeps after every failed attempt, the last one included.
    await clock.sleep(step, signal);
    step = Math.min(2 * step, BACKOFF_MAX_MS);
  }
  if (signal.aborted) return undefined;
  const status: ImageTagStatus = { ...base, phase: 'Failed', completionTime: toApiTime(clock.nowMs()), message: lastError };
  deps.publish(status);
  return { ok: false, status, elapsedMs: clock.nowMs() - start, error: lastError };
}

/** FIFO pool: at most `max` jobs run at once (0 = unbounded). A job cancelled while queued never starts. */
export class PullPool {
  private running = 0;
  private readonly queue: Array<{ run: () => Promise<void>; signal: AbortSignal }> = [];
  peak = 0;
  constructor(private readonly max: number) {}

  submit(run: () => Promise<void>, signal: AbortSignal): void {
    this.queue.push({ run, signal });
    this.drain();
  }

  get active(): number {
    return this.running;
  }

  private drain(): void {
    while (this.queue.length > 0 && (this.max <= 0 || this.running < this.max)) {
      const job = this.queue.shift()!;
      if (job.signal.aborted) continue;
      this.running++;
      this.peak = Math.max(this.peak, this.running);
      void job.run().catch(() => undefined).finally(() => {
        this.running--;
        this.drain();
      });
    }
  }
}
