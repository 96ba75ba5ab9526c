// Leader election run in a worker thread, so that a busy main event loop (a long reconcile, a burst of informer
// events) cannot delay a Lease renewal past the renew deadline. client-go renews from its own goroutine for the same
// reason. The thread (an entry module such as controller/lease-thread.ts) runs LeaderElector over its own API client
// and reports to this side; this side starts the controllers on `started` and stops them on `lost`.
//
// The trade: a main loop wedged for good keeps the Lease renewed. Liveness (/healthz, served by the main loop) then
// fails and the kubelet restarts the container, as it would a wedged Go manager whose renew goroutine still runs.
import type { Logger } from 'pino';
import { startWorker } from '../worker.js';
import type { LeaderMetrics } from './leader-metrics.js';

/** What the thread tells the main side. */
export type LeaseThreadMessage =
  | { type: 'started' }
  /** Leadership ended (renewal failed or stop asked): controllers must stop now; `stopped` follows after the release. */
  | { type: 'lost' }
  | { type: 'stopped' }
  | { type: 'leader'; identity: string };

/** What the main side tells the thread. */
export type LeaseThreadCommand = { type: 'stop' };

export interface ElectionThreadOptions {
  /** The thread's entry module. */
  entry: URL;
  /** Handed to the thread as workerData (structured-cloned: plain data only). */
  workerData: unknown;
  /** The Lease's name, for the metrics. */
  name: string;
  log: Logger;
  metrics?: LeaderMetrics;
  onStartedLeading: (signal: AbortSignal) => void | Promise<void>;
  onStoppedLeading?: () => void;
  onNewLeader?: (identity: string) => void;
}

/**
 * Runs the election thread until `signal` aborts (then it releases the Lease and ends) or the thread ends on its
 * own (leadership lost, or a crash, which counts as lost). Resolves once the thread has exited.
 */
export function runElectionThread(o: ElectionThreadOptions, signal: AbortSignal): Promise<void> {
  const worker = startWorker(o.entry, { workerData: o.workerData });
  let leadership: AbortController | undefined;
  let stopped = false;
  o.metrics?.off(o.name);
  const lose = () => {
    if (!leadership || leadership.signal.aborted) return;
    o.metrics?.off(o.name);
    leadership.abort();
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    lose();
    if (leadership) o.onStoppedLeading?.();
  };
  worker.on('message', (m: LeaseThreadMessage) => {
    switch (m.type) {
      case 'started':
        leadership = new AbortController();
        o.metrics?.on(o.name);
        Promise.resolve()
          .then(() => o.onStartedLeading(leadership!.signal))
          .catch((err: unknown) => o.log.error({ err }, 'onStartedLeading failed'));
        break;
      case 'lost': lose(); break;
      case 'stopped': stop(); break;
      case 'leader': o.onNewLeader?.(m.identity); break;
    }
  });
  const onAbort = () => worker.postMessage({ type: 'stop' } satisfies LeaseThreadCommand);
  if (signal.aborted) onAbort(); else signal.addEventListener('abort', onAbort, { once: true });
  return new Promise((resolve) => {
    worker.on('error', (err) => o.log.error({ err }, 'leader-election thread failed; leadership is lost'));
    worker.on('exit', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (code !== 0) o.log.error({ code }, 'leader-election thread exited');
      stop();
      resolve();
    });
  });
}
