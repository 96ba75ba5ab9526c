// nodeimage-controller (spec/daemon-and-controllers.md §2.3): one NodeImage per Node, created once the Node has been
// Ready for the creation delay and deleted with it (explicitly, as upstream: NodeImages carry no ownerReference);
// labels mirrored from the Node; tags of deleted ImagePullJobs and finished tags past their TTL removed; tags the
// daemon never answered for marked Failed.
import type { V1Node, V1ObjectReference, V1Secret } from '@kubernetes/client-node';
import { ImagePullJobSecretBatchMode, type ImagePullJob } from '../../shared/api/image-pull-job.js';
import { KRUISE_API_VERSION_V1BETA1 } from '../../shared/api/meta.js';
import { FakeNodeImageLabel, type NodeImage, type ReferenceObject } from '../../shared/api/node-image.js';
import { freshView } from '../../shared/kube/fresh-view.js';
import { objectKey } from '../../shared/kube/keys.js';
import { resources, withTypeMeta } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';
import type { Result } from '../../shared/reconcile/types.js';
import { OwnerIndex } from '../imagepulljob/owner-index.js';
import type { Controller } from '../types.js';
import { nodeChangeMatters, nodeImageCreation } from './node-lifecycle.js';
import { cleanupSpec, isImagePullJobRef } from './spec-cleanup.js';
import { superviseStatus } from './status-supervision.js';

const FIELD_MANAGER = 'kruise-ts-nodeimage';
/** Upstream's floor on time-based requeues, with jitter so many NodeImages do not wake together. */
const MIN_REQUEUE_MS = 3_000;
const REQUEUE_JITTER_MS = 2_000;

export const nodeImageController: Controller = {
  name: 'nodeimage-controller',
  // Upstream runs the daemon-dependent controllers only with KruiseDaemon on.
  featureGate: 'KruiseDaemon',
  workers: 3,
  setup({ informers, rest, events, clock, config }, queue) {
    const nodes = informers.cache<V1Node>(resources.nodes);
    const nodeImages = informers.cache<NodeImage>(resources.nodeImages);
    const jobs = informers.cache<ImagePullJob>(resources.imagePullJobs);
    // Only pull-secret copies in the daemon-config namespace are ever looked at (review H2: not every Secret).
    const secrets = informers.cache<V1Secret>(resources.secrets, { namespace: config.daemonConfigNamespace });
    const view = freshView(nodeImages, () => clock.now());
    const index = new OwnerIndex();
    const recorder = events('nodeimage-controller');

    nodeImages.onChange((ni) => {
      const name = ni.metadata!.name!;
      index.update(name, nodeImages.get(name));
      queue.add(name);
    });
    nodes.onChange((node) => {
      const name = node.metadata!.name!;
      if (nodeChangeMatters(nodes.get(name), view.get(name))) queue.add(name);
    });
    // A released pull-secret copy leaves the NodeImages listing it (a rare event: a scan of the cache is fine).
    secrets.onChange((secret) => {
      const { namespace, name } = secret.metadata ?? {};
      if (namespace !== config.daemonConfigNamespace || secrets.get(`${namespace}/${name}`)) return;
      for (const ni of nodeImages.list()) {
        const listed = Object.values(ni.spec?.images ?? {}).some((i) => i.pullSecrets?.some((r) => r.namespace === namespace && r.name === name));
        if (listed) queue.add(ni.metadata!.name!);
      }
    });
    // A deleted job's tags go at once rather than at the NodeImage's next event.
    jobs.onChange((job) => {
      if (jobs.get(objectKey(job)) === undefined) for (const n of index.nodeImagesOf(job.metadata?.uid ?? '')) queue.add(n);
    });

    const jitter = (ms: number | undefined): number | undefined =>
      ms === undefined ? undefined : ms < MIN_REQUEUE_MS ? MIN_REQUEUE_MS + Math.floor(Math.random() * REQUEUE_JITTER_MS) : ms;

    return async (name, { log }): Promise<Result | void> => {
      const node = nodes.get(name);
      const ni = view.get(name);
      if (!node || node.metadata?.deletionTimestamp) {
        if (ni && !ni.metadata?.deletionTimestamp && ni.metadata?.labels?.[FakeNodeImageLabel] === undefined) {
          await rest.delete(resources.nodeImages, { name }, { uid: ni.metadata?.uid });
          log.info('deleted the NodeImage of a node that is gone');
        }
        return;
      }
      if (!ni) {
        const step = nodeImageCreation(node, clock.now(), config.nodeImageCreationDelayMs);
        if (step.kind === 'wait') return { requeueAfterMs: step.ms };
        if (step.kind === 'skip') return;
        const fresh: NodeImage = { apiVersion: KRUISE_API_VERSION_V1BETA1, kind: 'NodeImage', metadata: { name, labels: { ...node.metadata?.labels } }, spec: {} };
        try {
          view.wrote(await rest.create(resources.nodeImages, fresh, { fieldManager: FIELD_MANAGER }));
          log.info('created NodeImage');
        } catch (err) {
          if (!isConflict(err)) throw err;
        }
        return;
      }
      if (ni.metadata?.deletionTimestamp) return;

      const alive = await gatherJobs(ni, jobs, rest);
      const present = await gatherSecrets(ni, secrets, rest, config.daemonConfigNamespace);
      const cleaned = cleanupSpec(ni, {
        nodeLabels: node.metadata?.labels, now: clock.now(), daemonConfigNamespace: config.daemonConfigNamespace,
        jobAlive: (r) => alive.get(`${r.namespace}/${r.name}/${r.uid}`) ?? true,
        secretExists: (s) => present.get(`${s.namespace}/${s.name}`) ?? true,
      });
      if (cleaned.update) {
        const next: NodeImage = { ...ni, metadata: { ...ni.metadata, labels: cleaned.update.labels }, spec: cleaned.update.spec };
        view.wrote(await rest.replace(resources.nodeImages, withTypeMeta(resources.nodeImages, next), { fieldManager: FIELD_MANAGER }));
        // The write comes back as an event; status supervision runs on that fresher object.
        return;
      }

      const supervised = superviseStatus(ni, clock.now());
      for (const f of supervised.failures) {
        const message = `Failed to pull image ${f.image}:${f.tag} on node ${name} for ${f.message}`;
        for (const o of f.owners) recorder.event(referenced(o), 'Warning', 'PullImageFailed', message);
        recorder.event(withTypeMeta(resources.nodeImages, ni), 'Warning', 'PullImageFailed', message);
      }
      if (supervised.status) {
        view.wrote(await rest.replace(resources.nodeImages, withTypeMeta(resources.nodeImages, { ...ni, status: supervised.status }), { subresource: 'status', fieldManager: FIELD_MANAGER }));
      }
      const waits = [cleaned.requeueAfterMs, supervised.requeueAfterMs].filter((w): w is number => w !== undefined);
      const after = jitter(waits.length ? Math.min(...waits) : undefined);
      return after === undefined ? undefined : { requeueAfterMs: after };
    };
  },
};

/** An object to hang an Event on, from a tag's ObjectReference. */
function referenced(ref: V1ObjectReference) {
  return { apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name, namespace: ref.namespace, uid: ref.uid } };
}

/**
 * For each ImagePullJob a tag names: is that very job (same uid) still there? The cache answers almost always; a miss
 * is confirmed with a GET, because a job created a moment ago may write its tag before this cache has seen it.
 * Errors other than NotFound count as alive (never drop a tag on a guess).
 */
async function gatherJobs(ni: NodeImage, jobs: { get(key: string): ImagePullJob | undefined }, rest: KubeRest): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  for (const image of Object.values(ni.spec?.images ?? {})) {
    for (const tag of image.tags ?? []) {
      for (const ref of tag.ownerReferences ?? []) {
        if (!isImagePullJobRef(ref)) continue;
        const id = `${ref.namespace}/${ref.name}/${ref.uid}`;
        if (out.has(id)) continue;
        let job: ImagePullJob | undefined = jobs.get(`${ref.namespace}/${ref.name}`);
        if (job?.metadata?.uid !== ref.uid) {
          try {
            job = await rest.find<ImagePullJob>(resources.imagePullJobs, { namespace: ref.namespace ?? '', name: ref.name ?? '' });
          } catch {
            out.set(id, true);
            continue;
          }
        }
        out.set(id, job?.metadata?.uid === ref.uid);
      }
    }
  }
  return out;
}

/** Whether each pull-secret copy in the daemon namespace exists; cache first, a miss confirmed with a GET. */
async function gatherSecrets(ni: NodeImage, secrets: { get(key: string): V1Secret | undefined }, rest: KubeRest, ns: string): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  for (const image of Object.values(ni.spec?.images ?? {})) {
    for (const s of (image.pullSecrets ?? []) as ReferenceObject[]) {
      const id = `${s.namespace}/${s.name}`;
      // Batch refs (shared copies, v1.9) are kept whatever the Secret's state, so they cost no read.
      if (s.namespace !== ns || out.has(id) || (s as { mode?: string }).mode === ImagePullJobSecretBatchMode) continue;
      if (secrets.get(id)) { out.set(id, true); continue; }
      try {
        out.set(id, (await rest.find(resources.secrets, { namespace: ns, name: s.name ?? '' })) !== undefined);
      } catch (err) {
        out.set(id, !isNotFound(err));
      }
    }
  }
  return out;
}
