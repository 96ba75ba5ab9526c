// The messages between the main thread and an admission worker (webhook/pool/). Plain structured-clone data; request
// and reply bodies travel as ArrayBuffers in the transfer list, so their bytes move between threads without a copy.
import type { AdmissionStatus, ResultLabel } from '../admission/response.js';
import type { SnapshotParts } from './snapshot.js';

/** Who a review is about: the bindings of the per-review log line (style P11), made in the worker, logged on main. */
export interface ReviewIdentity {
  uid: string;
  kind: string;
  namespace?: string;
  name?: string;
  operation: string;
  user?: string;
}

/** What a worker (or the in-thread executor) made of one request; the reply bytes travel beside it. */
export type Outcome =
  /** Not a review at all (unparseable JSON, a malformed envelope): a bare HTTP 400. */
  | { kind: 'refuse'; code: 400; message: string }
  /** An AdmissionReview answered: `seconds` from decoded review to encoded reply (kruise_webhook_admission_duration). */
  | { kind: 'admitted'; label: ResultLabel; seconds: number; identity: ReviewIdentity; status?: AdmissionStatus; error?: string; replyRefused?: number }
  /** A ConversionReview answered; `failure` is the Failure result's message. */
  | { kind: 'converted'; uid: string; desiredAPIVersion: string; objects: number; failure?: string };

export type JobKind = 'admit' | 'convert';

/** What main learns as soon as the worker has decoded the envelope: enough to write a deadline answer for it. */
export type Envelope =
  | { kind: 'admit'; apiVersion: string; uid: string }
  | { kind: 'convert'; apiVersion?: string; reviewKind?: string; uid: string };

/** The RPCs a worker makes to the main thread, which owns the API clients (each call with its own timeout). */
export type RpcMethod = 'fetchPod' | 'fetchNode' | 'dryRunCreate' | 'canWrite' | 'sidecarSetsSynced' | 'spendPub' | 'replicaSetOwner' | 'countForDeletion'
  | 'fetchWorkload' | 'fetchWorkloadSpread' | 'updateWorkloadSpreadStatus';

export type ToWorker =
  | { t: 'snapshot'; parts: Partial<SnapshotParts> }
  /** `seq`: the job's word in the worker's claim ring (claims.ts); `body` shared, never copied, when a SharedArrayBuffer. */
  | { t: 'job'; id: number; seq: number; kind: JobKind; path: string; body: ArrayBuffer | SharedArrayBuffer; source: string }
  | { t: 'rpc-reply'; rid: number; ok: true; value: unknown }
  | { t: 'rpc-reply'; rid: number; ok: false; message: string };

export type FromWorker =
  | { t: 'ready' }
  | { t: 'envelope'; id: number; envelope: Envelope }
  | { t: 'done'; id: number; outcome: Outcome; body: ArrayBuffer }
  | { t: 'rpc'; id: number; rid: number; method: RpcMethod; args: unknown[] };
