// The contract every manager controller implements. A controller is a value in controller/controllers.ts, not a
// side effect of an import (style §4: no init() registries).
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Clock } from '../shared/clock.js';
import type { Config, FeatureGate } from '../shared/config.js';
import type { EventRecorder } from '../shared/kube/event-recorder.js';
import type { InformerFactory } from '../shared/kube/informer-factory.js';
import type { KubeRest } from '../shared/kube/rest.js';
import type { ReconcileFn } from '../shared/reconcile/types.js';

/** What main.ts hands every controller; all I/O a controller does goes through these. */
export interface ControllerDeps {
  rest: KubeRest;
  /** Shared caches: ask for what you watch; the same resource and scope is one watch for the whole process. */
  informers: InformerFactory;
  /** Events reported under `component` (upstream's controller name, e.g. `sidecarset-controller`). */
  events(component: string): EventRecorder;
  log: Logger;
  metrics: Registry;
  clock: Clock;
  /** kruise-ts's own namespace (POD_NAMESPACE, default kruise-system). */
  namespace: string;
  /** The process configuration, for controller settings (read once by main.ts). */
  config: Config;
}

/** The part of the WorkQueue a controller's watch handlers may use: keys in, never objects. */
export interface Enqueue {
  add(key: string): void;
  addAfter(key: string, ms: number): void;
}

export interface Controller {
  /** Log field, metrics label and the name in CONTROLLERS. */
  name: string;
  /** Concurrent reconciles (upstream's per-controller worker count). */
  workers: number;
  /** Runs only while this feature gate is on (FEATURE_GATES), as upstream adds gated controllers only then. */
  featureGate?: FeatureGate;
  /** Runs also while this gate is on (the PUB controller runs with either PUB gate). */
  orFeatureGate?: FeatureGate;
  /**
   * Called once, when this replica becomes leader: subscribe to the caches the controller watches (mapping each
   * change to the keys it affects) and return the reconcile function. Workers start after every cache synced.
   */
  setup(deps: ControllerDeps, queue: Enqueue): ReconcileFn;
}
