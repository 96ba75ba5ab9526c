// What main.ts hands every node-local controller, and what each gives back. A controller starts its own
// informers and runner on `start`, stops when `signal` aborts, and reports through `done` when it has.
import type { Logger } from 'pino';
import type { DaemonConfig } from '../shared/config.js';
import type { KubeConfig } from '@kubernetes/client-node';
import type { InformerFactory } from '../shared/kube/informer-factory.js';
import type { KubeRest } from '../shared/kube/rest.js';
import type { CriConnection } from './cri/grpc-runtime.js';
import type { HealthCheck } from './health.js';
import type { DaemonMetrics } from './metrics.js';

export interface DaemonContext {
  config: DaemonConfig;
  log: Logger;
  /**
   * Credentials. The daemon talks to the API only through `rest` and `informers`: constructing client-node's typed
   * API classes (makeKube) would pull every generated model into the process (see shared/kube/client.ts).
   */
  kc: KubeConfig;
  /** Plain-JSON REST calls (status subresources, events, patches). */
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
