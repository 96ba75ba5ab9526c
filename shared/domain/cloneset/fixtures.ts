// Pod fixtures for the CloneSet core's tests: a pod at a revision, ready or not, with the labels the core reads.
import { LifecycleStateLabel, PodRevisionLabel, SpecifiedDeleteLabel } from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';

export const T0 = Date.parse('2025-06-01T12:00:00Z');

export interface PodOpts {
  name?: string;
  rev?: string;
  ready?: boolean;
  /** Ready.lastTransitionTime, seconds before T0. */
  readyForS?: number;
  phase?: string;
  state?: string;
  specifiedDelete?: boolean;
  nodeName?: string;
  inPlaceReady?: boolean;
  createdS?: number;
  restarts?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

let seq = 0;
export function pod(o: PodOpts = {}): Pod {
  const name = o.name ?? `p${seq++}`;
  const ready = o.ready ?? true;
  const conditions: NonNullable<Pod['status']>['conditions'] = [
    { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: new Date(T0 - (o.readyForS ?? 100) * 1000) as never },
  ];
  if (o.inPlaceReady !== undefined) conditions.push({ type: 'InPlaceUpdateReady', status: o.inPlaceReady ? 'True' : 'False' });
  return {
    metadata: {
      name, namespace: 'default', uid: `uid-${name}`,
      creationTimestamp: new Date(T0 - (o.createdS ?? 1000) * 1000) as never,
      labels: {
        ...(o.rev ? { [PodRevisionLabel]: o.rev } : {}),
        ...(o.state ? { [LifecycleStateLabel]: o.state } : {}),
        ...(o.specifiedDelete ? { [SpecifiedDeleteLabel]: 'true' } : {}),
        ...o.labels,
      },
      ...(o.annotations ? { annotations: o.annotations } : {}),
    },
    spec: { containers: [{ name: 'c1', image: 'img' }], ...(o.nodeName !== '' ? { nodeName: o.nodeName ?? 'node-a' } : {}) },
    status: {
      phase: o.phase ?? 'Running', conditions,
      containerStatuses: [{ name: 'c1', image: 'img', imageID: 'id', ready, restartCount: o.restarts ?? 0 } as never],
    },
  };
}
