// core/v1 Events, as client-go's EventRecorder writes them. Best effort by design: an Event that cannot be written
// is logged and dropped, never allowed to fail the reconcile that emitted it.
import { randomBytes } from 'node:crypto';
import type { CoreV1Event, KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { resources } from './resources.js';
import type { KubeRest } from './rest.js';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  event(obj: KubernetesObject, type: EventType, reason: string, message: string): void;
}

/**
 * The Event client-go would write for `obj` (name `<obj>.<16 hex>`, in the object's namespace or `default`).
 * `host` is the recorder's `source.host` / `reportingInstance` (the node name for per-node components).
 */
export function buildEvent(obj: KubernetesObject, type: EventType, reason: string, message: string, component: string, now: Date, host?: string): CoreV1Event {
  const md = obj.metadata ?? {};
  const namespace = md.namespace || 'default';
  const ts = now.toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    apiVersion: 'v1', kind: 'Event',
    metadata: { name: `${md.name}.${randomBytes(8).toString('hex')}`, namespace },
    involvedObject: { apiVersion: obj.apiVersion, kind: obj.kind, name: md.name, namespace: md.namespace, uid: md.uid, resourceVersion: md.resourceVersion },
    type, reason, message: message.slice(0, 1024),
    source: { component, ...(host ? { host } : {}) }, reportingComponent: component, reportingInstance: host ?? '',
    firstTimestamp: ts as unknown as Date, lastTimestamp: ts as unknown as Date, count: 1,
  };
}

/**
 * Writes in flight at once, and Events waiting behind them before new ones are dropped. client-go's broadcaster
 * writes one at a time from a queue of 1,000 that drops when full; unbounded, a controller creating 1,000 pods fired
 * 1,000 Event POSTs at once (each its own TLS connection) and starved its own lease renewals.
 */
export const EVENT_WRITES_IN_FLIGHT = 4;
export const EVENT_QUEUE_LIMIT = 1000;

export function eventRecorder(deps: { rest: KubeRest; component: string; host?: string; log: Logger; now?: () => Date }): EventRecorder {
  const now = deps.now ?? (() => new Date());
  const queue: { ev: CoreV1Event; obj: KubernetesObject }[] = [];
  let running = 0;
  let dropped = 0;
  const pump = () => {
    while (running < EVENT_WRITES_IN_FLIGHT && queue.length > 0) {
      const { ev, obj } = queue.shift()!;
      running++;
      deps.rest.create(resources.events, ev).catch((err: unknown) =>
        deps.log.warn({ err, reason: ev.reason, object: `${obj.kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}` }, 'could not record event'))
        .finally(() => { running--; pump(); });
    }
  };
  return {
    event(obj, type, reason, message) {
      if (queue.length >= EVENT_QUEUE_LIMIT) {
        // One line per burst, not per Event.
        if (dropped++ === 0) deps.log.warn({ reason, queued: queue.length }, 'event queue full; dropping events');
        return;
      }
      if (dropped > 0) {
        deps.log.warn({ dropped }, 'events dropped while the queue was full');
        dropped = 0;
      }
      queue.push({ ev: buildEvent(obj, type, reason, message, deps.component, now(), deps.host), obj });
      pump();
    },
  };
}
