// imagelistpulljob-controller (spec/openkruise-v1.9.md §6): one child ImagePullJob per image of the list, made from
// the list's template and owned by it (garbage-collected with it); the list's status sums up its children's.
// Children of an edited template or a removed image are deleted, and new ones created in slow-start batches.
import type { ImageListPullJob, ImageListPullJobStatus } from '../../shared/api/image-list-pull-job.js';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import { forEachLimit, slowStart } from '../../shared/concurrency.js';
import { controllerOf, objectKey } from '../../shared/kube/keys.js';
import { metaTime, parseMetaTime } from '../../shared/kube/meta-time.js';
import { resources, withTypeMeta } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';
import type { ReconcileContext, Result } from '../../shared/reconcile/types.js';
import { EXPECTATION_TIMEOUT_MS, ScaleExpectations } from '../cloneset/expectations.js';
import type { Controller } from '../types.js';
import { newChild, ownedChildren, planChildren, TemplateHashLabel, templateHash } from './children.js';
import { computeStatus } from './job-status.js';

export const COMPONENT = 'imagelistpulljob-controller';
const FIELD_MANAGER = 'kruise-ts-imagelistpulljob';
/** Deletes in flight at once (upstream deletes one after another). */
const DELETE_CONCURRENCY = 8;
const CONFLICT_RETRIES = 5;

/** The ImageListPullJob a child reports to: its controller reference of that kind in apps.kruise.io (any version). */
export function parentKey(child: ImagePullJob): string | undefined {
  const ref = controllerOf(child);
  if (!ref || ref.kind !== 'ImageListPullJob' || ref.apiVersion.split('/')[0] !== 'apps.kruise.io' || !child.metadata?.namespace) return undefined;
  return `${child.metadata.namespace}/${ref.name}`;
}

export const imageListPullJobController: Controller = {
  name: COMPONENT,
  // As the ImagePullJob controller: KruiseDaemon=false forces this gate off too (shared/feature-gates.ts).
  featureGate: 'ImagePullJobGate',
  workers: 3,
  setup({ informers, rest, clock, events }, queue) {
    const lists = informers.cache<ImageListPullJob>(resources.imageListPullJobs);
    const jobs = informers.cache<ImagePullJob>(resources.imagePullJobs);
    const recorder = events(COMPONENT);
    const now = () => clock.now();
    // Children created / deleted by this process that the cache has not shown yet (upstream's per-image expectations).
    const creating = new ScaleExpectations(now);
    const deleting = new ScaleExpectations(now);

    lists.onChange((l) => queue.add(objectKey(l)));
    jobs.onChange((child, verb) => {
      const key = parentKey(child);
      if (!key) return;
      const name = child.metadata?.name ?? '';
      // The cache already holds the new state: a child it no longer has was deleted.
      const gone = verb === 'delete' || !jobs.get(objectKey(child));
      if (gone || child.metadata?.deletionTimestamp) deleting.observe(key, name);
      if (!gone) creating.observe(key, name);
      queue.add(key);
    });

    return async (key: string, { log }: ReconcileContext): Promise<Result | void> => {
      const list = lists.get(key);
      if (!list) { creating.delete(key); deleting.delete(key); return; }
      if (list.metadata?.deletionTimestamp) return;
      const hash = templateHash(list);
      if (list.metadata?.labels?.[TemplateHashLabel] !== hash) {
        await rest.patch(resources.imageListPullJobs, { namespace: list.metadata?.namespace, name: list.metadata?.name ?? '' }, 'merge',
          { metadata: { labels: { [TemplateHashLabel]: hash } } }, { fieldManager: FIELD_MANAGER });
      }

      if (list.status?.completionTime) {
        const ttl = list.spec?.completionPolicy?.ttlSecondsAfterFinished;
        if (ttl == null) return;
        const left = (parseMetaTime(list.status.completionTime) ?? now()) + ttl * 1000 - now();
        if (left > 0) return { requeueAfterMs: left };
        await rest.delete(resources.imageListPullJobs, { namespace: list.metadata?.namespace, name: list.metadata?.name ?? '' }, { uid: list.metadata?.uid });
        log.info('deleted ImageListPullJob after ttlSecondsAfterFinished');
        return;
      }

      const waited = Math.max(creating.waitedMs(key) ?? -1, deleting.waitedMs(key) ?? -1);
      if (waited >= 0 && waited < EXPECTATION_TIMEOUT_MS) return { requeueAfterMs: EXPECTATION_TIMEOUT_MS - waited };
      if (waited >= EXPECTATION_TIMEOUT_MS) { log.warn('expected child ImagePullJob events never came; going on from the cache'); creating.delete(key); deleting.delete(key); }

      const plan = planChildren(list, ownedChildren(list, jobs.list()), hash);
      const status = computeStatus(list, plan.kept, metaTime(now()));
      const subject = withTypeMeta(resources.imageListPullJobs, list);

      if (plan.remove.length) {
        let removed = 0;
        await forEachLimit(plan.remove, DELETE_CONCURRENCY, async (child) => {
          const name = child.metadata?.name ?? '';
          deleting.expect(key, name);
          try {
            if (await rest.delete(resources.imagePullJobs, { namespace: child.metadata?.namespace, name }, { uid: child.metadata?.uid })) removed++;
            else deleting.observe(key, name);
          } catch (err) {
            deleting.observe(key, name);
            if (!isNotFound(err)) throw err;
          }
        }).finally(() => { if (removed) recorder.event(subject, 'Normal', 'Successful delete ImagePullJob', `Delete ${removed} ImagePullJob`); });
      }
      if (plan.create.length) {
        const { done, error } = await slowStart(plan.create, async (image) => {
          const created = await rest.create(resources.imagePullJobs, newChild(list, image, hash), { fieldManager: FIELD_MANAGER });
          // Recorded after the call: its name comes from generateName. Reconciles of one key never overlap.
          if (!jobs.get(objectKey(created))) creating.expect(key, created.metadata?.name ?? '');
        });
        if (done) recorder.event(subject, 'Normal', 'Successful create ImagePullJob', `Create ${done} ImagePullJob`);
        if (error) throw error;
      }

      if (!sameStatus(list.status, status)) await writeStatus(rest, list, status);
    };
  },
};

/** Get + update of the status subresource, retried on conflict (upstream's updateStatus). */
async function writeStatus(rest: KubeRest, list: ImageListPullJob, status: ImageListPullJobStatus): Promise<void> {
  let current: ImageListPullJob | undefined = list;
  for (let attempt = 0; current; attempt++) {
    try {
      await rest.replace(resources.imageListPullJobs, withTypeMeta(resources.imageListPullJobs, { ...current, status }), { subresource: 'status', fieldManager: FIELD_MANAGER });
      return;
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isConflict(err) || attempt >= CONFLICT_RETRIES) throw err;
      current = await rest.find<ImageListPullJob>(resources.imageListPullJobs, { namespace: list.metadata?.namespace, name: list.metadata?.name ?? '' });
    }
  }
}

/** The times are kept from the old status when only the clock moved (startTime is kept; completionTime set once). */
function sameStatus(a: ImageListPullJobStatus | undefined, b: ImageListPullJobStatus): boolean {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}
const normalize = (s: ImageListPullJobStatus | undefined) => s && {
  startTime: s.startTime, completionTime: s.completionTime ?? null, desired: s.desired, active: s.active, completed: s.completed,
  succeeded: s.succeeded, failedImageStatuses: s.failedImageStatuses?.length ? s.failedImageStatuses.map((f) => [f.imagePullJob, f.name, f.message]) : null,
};
