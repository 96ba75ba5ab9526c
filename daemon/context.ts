// What main.ts hands every node-local controller, and what each gives back. A controller starts its own
// informers and runner on `start`, stops when `signal` aborts, and reports through `done` when it has.
import type { Logger } from 'pino';
import type { DaemonConfig } from '../shared/config.js';
import type { InformerFactory } from '../shared/kube/informer-factory.js';
import type { KubeRest } from '../shared/kube/rest.js';
import type { CriConnection } from './cri/grpc-runtime.js';
import type { HealthCheck } from './health.js';
import type { DaemonMetrics } from './metrics.js';

export interface DaemonContext {
  config: DaemonConfig;
  log: Logger;
  /**
   * Plain-JSON REST calls (status subresources, events, patches). The daemon talks to the API only through `rest`
   * and `informers`; nothing of client-node is loaded at run time (its types only).
   */
  rest: KubeRest;
  /** Shared informers, stopped with `signal`; scope every one to this node or namespace. */
  informers: InformerFactory;
  cri: CriConnection;
  /** e.g. `containerd`: the scheme of container IDs on this node (`containerd://<id>`). */
  runtimeName: string;
  metrics: DaemonMetrics;
  signal: AbortSignal;
}

export interface NodeController {
  name: string;
  /** Run by `/healthz`, e.g. upstream's `nodeImageInformerSynced`. */
  healthChecks: HealthCheck[];
  /** Resolves once the controller stopped after `signal` aborted: runner drained, pulls stopped, events flushed. */
  done: Promise<void>;
}
