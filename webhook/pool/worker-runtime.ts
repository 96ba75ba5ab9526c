// The body of an admission worker thread: builds the route table over the snapshot caches (snapshot.ts) and the RPCs
// to main (rpc.ts), then answers each job with the same functions the in-thread executor runs (admission/answer.ts,
// conversion/answer.ts). One job at a time is what the pool sends; the handlers' calls to main carry the job's id
// (AsyncLocalStorage), so main can stop that job's deadline clock while it waits on the apiserver for it. Jobs main
// pipelines behind the running one wait here and run one after another, each only if main has not taken it back
// (claims.ts): a job waiting on an RPC holds its worker, whose waiting jobs main then gives to other workers.
import { AsyncLocalStorage } from 'node:async_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import Fastify from 'fastify';
import type { FeatureGate } from '../../shared/config.js';
import type { WorkloadSpread } from '../../shared/api/workload-spread.js';
import type { Workload } from '../../shared/domain/workloadspread/replicas.js';
import { answerAdmission, type Answer } from '../admission/answer.js';
import type { JsonParser } from '../admission/body.js';
import type { AdmissionHandler, WebhookRoute } from '../admission/route.js';
import { admissionCaches } from '../caches.js';
import { answerConversion, CONVERSION_DECODERS } from '../conversion/answer.js';
import type { RouteDeps } from '../handlers/index.js';
import type { CanWrite } from '../handlers/write-access.js';
import type { DeletionCount } from '../handlers/validate-deletion-protection.js';
import { writeEnvelope, type EnvelopeSlot } from './envelope-slot.js';
import { start, type ClaimRing } from './claims.js';
import type { Envelope, FromWorker, RpcMethod, ToWorker } from './protocol.js';
import { rpcClient } from './rpc.js';
import { snapshotCacheSet } from './snapshot.js';

/** What the pool passes each worker (structured clone). */
export interface WorkerData {
  gates: Readonly<Record<FeatureGate, boolean>>;
  /** The RPCs main offers: dryRunCreate and canWrite only where main has API clients (not the CLI, not tests). */
  rpcs: readonly RpcMethod[];
  rpcTimeoutMs: number;
  /** Where this worker leaves the envelope of the review it answers (envelope-slot.ts). */
  envelopeSlot: EnvelopeSlot;
  /** Where this worker claims each job before it runs it (claims.ts). */
  claims: ClaimRing;
}

/** The reply's bytes as an ArrayBuffer the worker may give away: the Buffer's own, or a copy when it shares Node's pool. */
function transferable(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  const out = new Uint8Array(bytes.byteLength);
  out.set(bytes);
  return out.buffer;
}

export function runWorker(makeRoutes: (deps: RouteDeps) => WebhookRoute[]): void {
  const port = parentPort;
  if (!port) throw new Error('webhook/pool/worker: not a worker thread');
  const data = workerData as WorkerData;
  const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  const current = new AsyncLocalStorage<number>();
  const rpc = rpcClient(post, () => current.getStore(), data.rpcTimeoutMs);
  const { set, apply } = snapshotCacheSet();
  const lookups = admissionCaches(set, {
    fetchPod: (ns, name) => rpc.call('fetchPod', [ns, name]),
    fetchNode: (name) => rpc.call('fetchNode', [name]),
    fetchWorkload: (...args) => rpc.call('fetchWorkload', args) as Promise<Workload | undefined>,
    fetchWorkloadSpread: (...args) => rpc.call('fetchWorkloadSpread', args) as Promise<WorkloadSpread | undefined>,
    updateWorkloadSpreadStatus: (ws) => rpc.call('updateWorkloadSpreadStatus', [ws]) as Promise<WorkloadSpread | 'conflict'>,
  });
  const deps: RouteDeps = {
    caches: { ...lookups, sidecarSetsSynced: (ms) => (set.sidecarSets.isSynced() ? Promise.resolve() : rpc.call('sidecarSetsSynced', [ms]).then(() => undefined)) },
    gates: data.gates,
    now: () => new Date(),
    random: Math.random,
    ...(data.rpcs.includes('dryRunCreate') ? { dryRunCreate: (r: Record<string, unknown>) => rpc.call('dryRunCreate', [r]) as Promise<string | undefined> } : {}),
    ...(data.rpcs.includes('canWrite') ? { canWrite: ((...args) => rpc.call('canWrite', args)) as CanWrite } : {}),
    ...(data.rpcs.includes('spendPub') ? { spendPub: ((r) => rpc.call('spendPub', [r])) as NonNullable<RouteDeps['spendPub']> } : {}),
    ...(data.rpcs.includes('replicaSetOwner') ? { replicaSetOwner: ((...args) => rpc.call('replicaSetOwner', args)) as NonNullable<RouteDeps['replicaSetOwner']> } : {}),
    ...(data.rpcs.includes('countForDeletion') ? { countForDeletion: ((q) => rpc.call('countForDeletion', [q])) as DeletionCount } : {}),
  };
  const handlers = new Map<string, AdmissionHandler>(makeRoutes(deps).map((r) => [r.path, r.handler]));
  // Fastify's own JSON parser with the server's poisoning policy (app.ts): __proto__ and constructor.prototype refused.
  const parse = Fastify({ onProtoPoisoning: 'error', onConstructorPoisoning: 'error' }).getDefaultJsonParser('error', 'error') as JsonParser;

  const run = async (m: Extract<ToWorker, { t: 'job' }>): Promise<void> => {
    const bytes = new Uint8Array(m.body);
    const onEnvelope = (envelope: Envelope) => { if (!writeEnvelope(data.envelopeSlot, m.id, envelope)) post({ t: 'envelope', id: m.id, envelope }); };
    let answer: Answer;
    if (m.kind === 'convert') answer = answerConversion(CONVERSION_DECODERS, bytes, parse, onEnvelope);
    else {
      const handler = handlers.get(m.path);
      answer = handler
        ? await answerAdmission(handler, bytes, parse, { source: m.source }, onEnvelope)
        : { outcome: { kind: 'refuse', code: 400, message: `no admission handler for ${m.path} in the worker` }, body: new Uint8Array(0) };
    }
    const body = transferable(answer.body);
    post({ t: 'done', id: m.id, outcome: answer.outcome, body }, [body]);
  };

  const waiting: Array<Extract<ToWorker, { t: 'job' }>> = [];
  let running = false;
  const next = (): void => {
    running = false;
    for (let m = waiting.shift(); m; m = waiting.shift()) {
      if (!start(data.claims, m.seq)) continue;
      running = true;
      void current.run(m.id, () => run(m)).then(next, next);
      return;
    }
  };

  let ready = false;
  port.on('message', (m: ToWorker) => {
    if (m.t === 'snapshot') {
      apply(m.parts);
      if (!ready) { ready = true; post({ t: 'ready' }); }
    } else if (m.t === 'rpc-reply') rpc.settle(m);
    else if (m.t === 'job') {
      waiting.push(m);
      if (!running) next();
    }
  });
}
