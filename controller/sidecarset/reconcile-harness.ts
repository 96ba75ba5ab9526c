// Test harness of the SidecarSet reconcile: a recorded in-memory API, caches over it, and a few lines of kubelet.
import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';
import pino from 'pino';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { realClock } from '../../shared/clock.js';
import type { Cache } from '../../shared/kube/informer.js';
import { KubeApiError, type KubeRest } from '../../shared/kube/rest.js';
import type { Resource } from '../../shared/kube/resources.js';
import { UpdateExpectations } from './expectations.js';
import { kubelet, NOW } from './fixtures.js';
import { PodIndex } from './pod-index.js';
import { podView } from './pod-view.js';
import { sidecarSetReconciler, type ReconcileDeps } from './reconcile.js';
import { PrePullWaits } from './prepull-waits.js';
import { ResizeRefusals } from './resize-refusals.js';
import type { Revision } from './revision-history.js';
import { pdbGate } from '../disruption/pdb-gate.js';
import type { PodDisruptionBudget } from '../../shared/domain/disruption/pdb-budget.js';

type Obj = KubernetesObject & Record<string, unknown>;
/** Where the daemon reads pull secrets (the chart's kruise-daemon-config). */
export const DAEMON_NAMESPACE = 'kruise-daemon-config';
const keyOf = (o: { namespace?: string; name?: string }) => (o.namespace ? `${o.namespace}/${o.name}` : (o.name ?? ''));

/** An API server of plain maps per resource; every write is logged as "VERB plural[/sub] name". */
export function fakeApi() {
  const store = new Map<string, Map<string, Obj>>();
  const log: string[] = [];
  const bodies: unknown[] = [];
  const table = (r: Resource) => store.get(r.plural) ?? store.set(r.plural, new Map()).get(r.plural)!;
  let rv = 1000;
  /** What `PATCH pods/x/resize` answers: applied (undefined), or an error with this code (e.g. 404, 422). */
  const resizeAnswer: { code?: number } = {};
  /** pods/resize: the containers' cpu/memory merged into the stored spec (null removes). */
  const resize = (key: string, body: unknown) => {
    if (resizeAnswer.code) throw new KubeApiError('PATCH', 'pods/resize', resizeAnswer.code, JSON.stringify({ reason: 'Refused', message: `resize answered ${resizeAnswer.code}` }));
    const current = store.get('pods')?.get(key);
    if (!current) throw new KubeApiError('PATCH', 'pods', 404, '{"reason":"NotFound"}');
    const next = structuredClone(current) as unknown as Pod;
    type Entry = { name: string; resources: Record<string, Record<string, string | null>> };
    const spec = (body as { spec: { containers?: Entry[]; initContainers?: Entry[] } }).spec;
    for (const c of [...spec.containers ?? [], ...spec.initContainers ?? []]) {
      const target = [...next.spec!.containers, ...next.spec!.initContainers ?? []].find((x) => x.name === c.name)!;
      const res = (target.resources ??= {}) as Record<string, Record<string, string>>;
      for (const [kind, list] of Object.entries(c.resources)) {
        const to = (res[kind] ??= {});
        for (const [k, v] of Object.entries(list)) if (v === null) delete to[k]; else to[k] = v;
      }
    }
    next.metadata!.resourceVersion = String(++rv);
    store.get('pods')!.set(key, next as unknown as Obj);
    return structuredClone(next);
  };
  const rest: KubeRest = {
    get: async (r, o) => {
      const v = table(r).get(keyOf(o));
      if (!v) throw new KubeApiError('GET', r.plural, 404, '{"reason":"NotFound"}');
      return structuredClone(v) as never;
    },
    find: async (r, o) => structuredClone(table(r).get(keyOf(o))) as never,
    list: async (r) => ({ items: [...table(r).values()] }) as never,
    create: async (r, obj) => {
      const k = keyOf(obj.metadata ?? {});
      log.push(`POST ${r.plural} ${obj.metadata?.name}`);
      if (table(r).has(k)) throw new KubeApiError('POST', r.plural, 409, '{"reason":"AlreadyExists"}');
      const stored = { ...structuredClone(obj), metadata: { ...obj.metadata, resourceVersion: String(++rv) } } as Obj;
      table(r).set(k, stored);
      return structuredClone(stored) as never;
    },
    replace: async (r, obj) => {
      log.push(`PUT ${r.plural} ${obj.metadata?.name}`);
      const current = table(r).get(keyOf(obj.metadata ?? {}));
      if (current && current.metadata?.resourceVersion !== obj.metadata?.resourceVersion) throw new KubeApiError('PUT', r.plural, 409, '{"reason":"Conflict"}');
      bodies.push(obj);
      const stored = { ...structuredClone(obj), metadata: { ...obj.metadata, resourceVersion: String(++rv) } } as Obj;
      table(r).set(keyOf(obj.metadata ?? {}), stored);
      return structuredClone(stored) as never;
    },
    patch: async (r, o, _type, body) => {
      log.push(`PATCH ${r.plural}${o.subresource ? `/${o.subresource}` : ''} ${o.name}`);
      bodies.push(body);
      if (r.plural === 'pods' && o.subresource === 'resize') return resize(keyOf(o), body) as never;
      if (r.plural !== 'pods' || o.subresource) return {} as never;
      // A pod patch as pod-patch.ts writes it: resourceVersion precondition, merged maps, images by container name.
      const current = table(r).get(keyOf(o));
      if (!current) throw new KubeApiError('PATCH', r.plural, 404, '{"reason":"NotFound"}');
      const p = body as { metadata: { resourceVersion?: string; annotations?: Record<string, string | null> };
        spec?: { containers?: { name: string; image: string }[]; initContainers?: { name: string; image: string }[] } };
      if (p.metadata.resourceVersion !== current.metadata?.resourceVersion) throw new KubeApiError('PATCH', r.plural, 409, '{"reason":"Conflict"}');
      const next = structuredClone(current) as unknown as Pod;
      const annotations = (next.metadata!.annotations ??= {});
      for (const [k, v] of Object.entries(p.metadata.annotations ?? {})) if (v === null) delete annotations[k]; else annotations[k] = v;
      for (const c of p.spec?.containers ?? []) next.spec!.containers.find((x) => x.name === c.name)!.image = c.image;
      for (const c of p.spec?.initContainers ?? []) next.spec!.initContainers!.find((x) => x.name === c.name)!.image = c.image;
      next.metadata!.resourceVersion = String(++rv);
      table(r).set(keyOf(o), next as unknown as Obj);
      return structuredClone(next) as never;
    },
    delete: async (r, o) => { log.push(`DELETE ${r.plural} ${o.name}`); return table(r).delete(keyOf(o)); },
    watch: async () => { throw new Error('watch is not faked'); },
  };
  return { rest, log, bodies, resizeAnswer, put: (r: string, o: Obj) => (store.get(r) ?? store.set(r, new Map()).get(r)!).set(keyOf(o.metadata ?? {}), o), table: (p: string) => store.get(p) ?? new Map<string, Obj>() };
}

function cacheOf<T extends KubernetesObject>(items: () => T[]): Cache<T> {
  return {
    synced: Promise.resolve(), isSynced: () => true, onChange: () => {},
    list: () => items(),
    get: (key) => items().find((i) => keyOf(i.metadata ?? {}) === key),
  };
}

export function harness(set: SidecarSet, pods: Pod[], o: { nodeImages?: boolean; pullSecrets?: boolean; pdb?: boolean } = {}) {
  const api = fakeApi();
  const world = { set, pods };
  for (const p of pods) api.put('pods', p as Obj);
  const index = new PodIndex();
  const events: string[] = [];
  const deps: ReconcileDeps = {
    rest: api.rest, clock: { ...realClock, now: () => NOW.getTime() }, log: pino({ level: 'silent' }), namespace: 'kruise-system',
    events: { event: (obj, type, reason) => events.push(`${type} ${reason} ${obj.kind}/${obj.metadata?.name}`) },
    sidecarSets: cacheOf(() => [world.set]),
    pods: cacheOf(() => world.pods),
    revisions: cacheOf(() => [...api.table('controllerrevisions').values()] as unknown as Revision[]),
    namespaceLabels: () => ({}),
    index, expectations: new UpdateExpectations(), refusals: new ResizeRefusals(), prePullWaits: new PrePullWaits(),
    ...(o.nodeImages && { nodeImages: {
      get: (name: string) => api.table('nodeimages').get(name) as NodeImage | undefined,
      list: () => [...api.table('nodeimages').values()] as NodeImage[],
      wrote: () => {},
    } }),
    ...(o.pullSecrets && { pullSecrets: {
      daemonNamespace: DAEMON_NAMESPACE,
      copies: () => [...api.table('secrets').values()].filter((s) => s.metadata?.namespace === DAEMON_NAMESPACE) as V1Secret[],
    } }),
  };
  // The PDB gate over the API's poddisruptionbudgets table (always current, as a cache in step).
  if (o.pdb) deps.pdb = pdbGate({ rest: api.rest, clock: deps.clock, pdbs: cacheOf(() => [...api.table('poddisruptionbudgets').values()] as unknown as PodDisruptionBudget[]),
    pod: (ns, name) => world.pods.find((p) => p.metadata?.namespace === ns && p.metadata?.name === name) });
  const reindex = () => world.pods.forEach((p) => index.set(`${p.metadata!.namespace}/${p.metadata!.name}`, [...podView(p).injected]));
  reindex();
  const reconcile = sidecarSetReconciler(deps);
  return {
    api, events, world,
    run: async () => { reindex(); api.log.length = 0; return reconcile('scs', { log: deps.log, signal: new AbortController().signal }); },
    /** The informer catches up with the API's pods. */
    sync: () => { world.pods = [...api.table('pods').values()] as Pod[]; },
    /** Kubelet applies the stored spec of `names` (all when omitted), and the informer sees it. */
    kubelet: (names?: string[], o: Parameters<typeof kubelet>[1] = {}) => {
      for (const [k, p] of api.table('pods')) if (!names || names.includes(p.metadata!.name!)) api.table('pods').set(k, kubelet(p as Pod, o) as Obj);
      world.pods = [...api.table('pods').values()] as Pod[];
    },
  };
}
