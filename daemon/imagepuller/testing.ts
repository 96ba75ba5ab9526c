// Test doubles for the puller: a virtual clock that jumps to the next timer whenever the event loop is idle,
// and a FakeRuntime whose pulls can fail, hang or take virtual time while counting how many run at once.
import { FakeRuntime } from '../cri/fake-runtime.js';
import type { CallOptions, PullImageRequest } from '../cri/runtime.js';
import type { PullClock } from './pull-worker.js';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

export class VirtualClock implements PullClock {
  now = Date.parse('2026-03-01T10:00:00Z');
  private timers: Timer[] = [];
  private seq = 0;
  private scheduled = false;

  nowMs(): number {
    return this.now;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const timer: Timer = { at: this.now + ms, seq: this.seq++, resolve };
      this.timers.push(timer);
      signal.addEventListener('abort', () => {
        this.timers = this.timers.filter((t) => t !== timer);
        resolve();
      }, { once: true });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate runs once pending promise callbacks drain: only then is nobody else able to make progress.
    setImmediate(() => {
      this.scheduled = false;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift();
      if (!next) return;
      this.now = Math.max(this.now, next.at);
      next.resolve();
      if (this.timers.length > 0) this.schedule();
    });
  }
}

export type PullBehaviour = 'ok' | 'hang' | Error | { takesMs: number };

/** pullImage follows `script` (per call, the last entry repeating); a hung pull never settles. */
export class ScriptedRuntime extends FakeRuntime {
  script: PullBehaviour[] = ['ok'];
  inFlight = 0;
  peakInFlight = 0;
  private pullCount = 0;

  constructor(private readonly clock: VirtualClock) {
    super();
  }

  override async pullImage(req: PullImageRequest, o?: CallOptions): Promise<string> {
    const behaviour = this.script[Math.min(this.pullCount++, this.script.length - 1)];
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    try {
      if (behaviour === 'hang') {
        this.calls.push({ method: 'pullImage', args: [req] });
        return await new Promise<string>(() => undefined);
      }
      if (typeof behaviour === 'object' && 'takesMs' in behaviour) await this.clock.sleep(behaviour.takesMs, new AbortController().signal);
      if (behaviour instanceof Error) {
        this.calls.push({ method: 'pullImage', args: [req] });
        throw behaviour;
      }
      return await super.pullImage(req, o);
    } finally {
      this.inFlight--;
    }
  }
}
