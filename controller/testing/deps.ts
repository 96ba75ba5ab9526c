// ControllerDeps over a FakeCluster, for reconciler tests.
import { Registry } from 'prom-client';
import { FakeClock } from '../../shared/clock.js';
import { loadConfig } from '../../shared/config.js';
import type { EventType } from '../../shared/kube/event-recorder.js';
import { silentLogger } from '../../shared/log.js';
import type { ReconcileContext } from '../../shared/reconcile/types.js';
import type { ControllerDeps } from '../types.js';
import type { FakeCluster } from './fake-cluster.js';

export interface RecordedEvent { kind?: string; name?: string; type: EventType; reason: string; message: string }

export function fakeDeps(cluster: FakeCluster, env: Record<string, string> = {}): { deps: ControllerDeps; clock: FakeClock; events: RecordedEvent[]; ctx: ReconcileContext } {
  const clock = new FakeClock(Date.parse('2025-06-01T12:00:00Z'));
  const events: RecordedEvent[] = [];
  const config = loadConfig(env);
  const deps: ControllerDeps = {
    rest: cluster.rest, informers: cluster.informers, log: silentLogger(), metrics: new Registry(), clock,
    namespace: config.namespace, config,
    events: () => ({ event: (obj, type, reason, message) => events.push({ kind: obj.kind, name: obj.metadata?.name, type, reason, message }) }),
  };
  return { deps, clock, events, ctx: { log: silentLogger(), signal: new AbortController().signal } };
}
