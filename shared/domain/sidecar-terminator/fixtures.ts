// Pods for the SidecarTerminator tests, shaped as upstream's sidecar_terminator_controller_test.go builds them.
import type { Container, Pod } from '../../api/meta.js';
import { IgnoreExitCodeEnv, TerminateSidecarEnv, TerminateWithImageEnv } from './containers.js';

type Status = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];
/** A container's state: running, exited with a code, or no state at all (waiting to start). */
export type State = 'running' | number | 'none';

export const sidecarEnv = (opts: { ignore?: boolean; image?: string; plain?: boolean } = {}) => [
  ...(opts.plain === false ? [] : [{ name: TerminateSidecarEnv, value: 'true' }]),
  ...(opts.ignore ? [{ name: IgnoreExitCodeEnv, value: 'true' }] : []),
  ...(opts.image ? [{ name: TerminateWithImageEnv, value: opts.image }] : []),
];

export const main = (name = 'main'): Container => ({ name, image: 'job:1' });
/** A sidecar as upstream's tests declare it: the CRR marker and the in-place image. */
export const sidecar = (name = 'sidecar', opts: { ignore?: boolean; image?: string | null; plain?: boolean } = {}): Container =>
  ({ name, image: 'side:1', env: sidecarEnv({ ignore: opts.ignore, image: opts.image === null ? undefined : opts.image ?? 'exit-quickly:latest', plain: opts.plain }) });

const status = (name: string, state: State): Status => ({
  name, image: 'x', imageID: '', ready: state === 'running', restartCount: 0,
  ...(state === 'none' ? {} : { containerID: `containerd://${name}` }),
  state: state === 'running' ? { running: {} } : state === 'none' ? {} : { terminated: { exitCode: state, finishedAt: '2025-06-01T11:59:00Z' as never } },
});

export interface PodOpts {
  restartPolicy?: 'Never' | 'OnFailure' | 'Always';
  phase?: string;
  initContainers?: Container[];
  deleting?: boolean;
}

/** A pod of `containers`, each with the state given in `states` (by name; missing: no status at all). */
export function jobPod(containers: Container[], states: Record<string, State>, opts: PodOpts = {}): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'job', namespace: 'default', uid: 'uid-job', ...(opts.deleting ? { deletionTimestamp: new Date(0) } : {}) },
    spec: { nodeName: 'n1', restartPolicy: opts.restartPolicy ?? 'Never', containers, ...(opts.initContainers ? { initContainers: opts.initContainers } : {}) },
    status: {
      phase: opts.phase ?? 'Running',
      containerStatuses: containers.filter((c) => states[c.name] !== undefined).map((c) => status(c.name, states[c.name]!)),
    },
  };
}
