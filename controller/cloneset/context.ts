// What one CloneSet reconcile round works with, gathered once: the deps, the CloneSet, its pods and revisions.
import type { Logger } from 'pino';
import type { CloneSet } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import type { Clock } from '../../shared/clock.js';
import type { Claim } from '../../shared/domain/cloneset/volume-claims.js';
import type { ResolvedStrategy } from '../../shared/domain/cloneset/strategy-values.js';
import type { EventRecorder } from '../../shared/kube/event-recorder.js';
import type { FreshView } from '../../shared/kube/fresh-view.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import type { ResourceVersionExpectations, ScaleExpectations } from './expectations.js';
import type { PdbGate } from '../disruption/pdb-gate.js';
import type { SecretIO } from '../prepull/secrets.js';
import type { Revisions } from './revisions.js';

export const FIELD_MANAGER = 'kruise-ts-cloneset';

/** Only with the PreDownloadImageForInPlaceUpdate gate on (predownload-sync.ts uses them). */
export interface PreDownloadDeps {
  nodeImages: FreshView<NodeImage>;
  secrets: Omit<SecretIO, 'rest'>;
}

export interface CloneSetDeps {
  rest: KubeRest;
  clock: Clock;
  log: Logger;
  events: EventRecorder;
  scaleExpectations: ScaleExpectations;
  rvExpectations: ResourceVersionExpectations;
  /** Uniform in [0, 1): instance ids. */
  random: () => number;
  /** With the PreDownloadImageForInPlaceUpdate gate on: image pre-download (predownload.ts). */
  preDownload?: PreDownloadDeps;
  /** With PodUnavailableBudgetUpdateGate on: the PUB pre-check before each pod update (pub-gate.ts). */
  pubUpdateGate?: (pod: Pod) => Promise<boolean>;
  /** PodDisruptionBudgets respected by in-place updates (controller/disruption/pdb-gate.ts); absent: not consulted. */
  pdb?: PdbGate;
}

export interface Round {
  deps: CloneSetDeps;
  key: string;
  cs: CloneSet;
  /** Active pods owned by the CloneSet after claiming. */
  pods: Pod[];
  /** PVCs owned by the CloneSet and not being deleted (§3.2 step 4). */
  claims: Claim[];
  revisions: Revisions;
  strategy: ResolvedStrategy;
  podsToDelete: ReadonlySet<string>;
  nowMs: number;
  /** The shortest requeue asked for during the round. */
  requeueAfterMs?: number;
}

export function requeueAfter(round: Round, ms: number): void {
  if (ms > 0 && (round.requeueAfterMs === undefined || ms < round.requeueAfterMs)) round.requeueAfterMs = ms;
}

/** The CloneSet as an Event subject. */
export const subject = (cs: CloneSet) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: cs.metadata });
export const at = (pod: Pod) => ({ namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' });
