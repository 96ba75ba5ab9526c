// imagepulljob-controller (spec/daemon-and-controllers.md §3.2): puts the job's image tag into the NodeImages of its
// target nodes, at most `parallelism` pulling at once, and reports progress from the NodeImage statuses the daemon
// writes. Unlike upstream, edits of a running job reach the NodeImages: a node leaving the selector loses the job's
// tag, and pull-policy edits are written to the tags it owns (openkruise/kruise#2221; docs/compatibility.md).
import type { V1Namespace, V1Secret } from '@kubernetes/client-node';
import { ImagePullJobDeletionProtectionFinalizer as Finalizer, type ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { Pod } from '../../shared/api/meta.js';
import { KRUISE_API_VERSION_V1BETA1 } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { ImageReferenceError, normalizeImageRef } from '../../shared/domain/image-ref.js';
import { LabelSelectorError } from '../../shared/domain/label-selector.js';
import { freshView } from '../../shared/kube/fresh-view.js';
import { metaTime, parseMetaTime } from '../../shared/kube/meta-time.js';
import { objectKey } from '../../shared/kube/keys.js';
import { resources, withTypeMeta } from '../../shared/kube/resources.js';
import { yieldToLoop } from '../../shared/reconcile/yield.js';
import { TerminalError, type ReconcileContext, type ReconcileFn, type Result } from '../../shared/reconcile/types.js';
import type { Controller, ControllerDeps, Enqueue } from '../types.js';
import { computeStatus, parallelismOf } from './job-status.js';
import { OwnerIndex } from './owner-index.js';
import { planSecrets } from './secret-copies.js';
import { sourceReader, withSourceResync } from './secret-sources.js';
import { progressWriteDelay } from './status-pacing.js';
import { withJobTag, withoutJobTags } from './tag-edit.js';
import { alignTag, tagPullPolicy } from './tag-policy.js';
import { mayTarget, selectTargets } from './targets.js';
import { jobsForNodeImage, jobsForNodeImageUpdate, jobsForPod, jobsForSecret } from './watch.js';
import { forEachLimit } from '../../shared/concurrency.js';
import { applySecretPlan, FIELD_MANAGER, updateNodeImage } from './writes.js';

/** NodeImage writes in flight per reconcile: upstream writes one after another, which is slow for large jobs. */
export const WRITE_CONCURRENCY = 16;
/**
 * NodeImage events come in bursts (the job's own tag writes, daemons reporting pulls): a job they wake waits this
 * long, so a burst costs one reconcile rather than one per NodeImage (each reconcile reads every target).
 */
export const NODEIMAGE_EVENT_DELAY_MS = 100;

export interface ImagePullJobControllerOptions {
  /**
   * Wake only the jobs whose own tag (or whole image) a NodeImage update changed (kruise#2483, spec/openkruise-v1.9.md
   * §7.3). On by default; off is the pre-v1.9 behaviour (every job targeting or owning a tag there is woken), kept for
   * bench/imagepulljob-storm to measure against.
   */
  tagLevelNodeImageEvents?: boolean;
}

export const imagePullJobController: Controller & { setup(deps: ControllerDeps, queue: Enqueue, options?: ImagePullJobControllerOptions): ReconcileFn } = {
  name: 'imagepulljob-controller',
  // KruiseDaemon=false forces this gate off too (shared/feature-gates.ts), as upstream.
  featureGate: 'ImagePullJobGate',
  workers: 3,
  setup({ informers, rest, clock, config }, queue, options: ImagePullJobControllerOptions = {}) {
    const tagLevel = options.tagLevelNodeImageEvents ?? true;
    const jobCache = informers.cache<ImagePullJob>(resources.imagePullJobs);
    const niCache = informers.cache<NodeImage>(resources.nodeImages);
    const pods = informers.cache<Pod>(resources.pods);
    // The copies only: sources in job namespaces are read on demand (secret-sources.ts; review H2).
    const copies = informers.cache<V1Secret>(resources.secrets, { namespace: config.daemonConfigNamespace });
    const namespaces = informers.cache<V1Namespace>(resources.namespaces);
    const jobs = freshView(jobCache, () => clock.now());
    const nodeImages = freshView(niCache, () => clock.now());
    const index = new OwnerIndex();
    /** Each job's targets at its last reconcile: a NodeImage leaving them must wake the job too. */
    const lastTargets = new Map<string, Set<string>>();
    /** When this process last wrote each job's status (progress is written at most once per interval). */
    const lastStatusWrite = new Map<string, number>();
    const policy = { defaultTtlSecondsForAlways: config.defaultTtlSecondsForAlwaysNodeImage };
    const podsOnNode = (node: string) => pods.list().filter((p) => p.spec?.nodeName === node);
    /** Parsed spec.image per cached job object (a new object on every job update; old ones are collected). */
    const parsedImages = new WeakMap<ImagePullJob, { name: string; tag: string } | undefined>();
    const watchState = {
      jobs: () => jobCache.list(), lastTargets, index,
      mayTarget: (j: ImagePullJob, ni: NodeImage) => mayTarget(j, ni, () => podsOnNode(ni.metadata?.name ?? '')),
      imageOf: (j: ImagePullJob) => {
        if (!parsedImages.has(j)) {
          let image: { name: string; tag: string } | undefined;
          try { image = normalizeImageRef(j.spec?.image ?? ''); } catch { image = undefined; }
          parsedImages.set(j, image);
        }
        return parsedImages.get(j);
      },
    };
    /** Each NodeImage as its last event showed it: the cache passes only the new object (shared/kube/informer.ts). */
    const lastSeen = new Map<string, NodeImage>();

    jobCache.onChange((job) => queue.add(objectKey(job)));
    niCache.onChange((ni) => {
      const name = ni.metadata!.name!;
      const owners = index.jobsOn(name);
      const after = niCache.get(name);
      const before = lastSeen.get(name);
      if (after) lastSeen.set(name, after); else lastSeen.delete(name);
      index.update(name, after);
      // Without a previous state (a create, or a delete) jobsForNodeImageUpdate wakes everyone, as jobsForNodeImage.
      const keys = tagLevel
        ? jobsForNodeImageUpdate(watchState, name, before, after, owners)
        : jobsForNodeImage(watchState, name, after, owners);
      for (const key of keys) queue.addAfter(key, NODEIMAGE_EVENT_DELAY_MS);
    });
    pods.onChange((pod) => { for (const key of jobsForPod(watchState, pod)) queue.add(key); });
    copies.onChange((s) => { for (const key of jobsForSecret(watchState, s, config.daemonConfigNamespace)) queue.add(key); });

    const sources = sourceReader(rest, () => clock.now());
    /** A finished job only releases its copies, so its sources are not read. */
    const secretPlan = async (job: ImagePullJob, finished: boolean) => {
      if (finished) sources.forget(objectKey(job));
      const read = finished ? new Map<string, V1Secret>() : await sources.read(objectKey(job), job);
      return planSecrets({
        job, finished, daemonNamespace: config.daemonConfigNamespace,
        source: (name) => read.get(name),
        copies: copies.list().filter((s) => s.metadata?.namespace === config.daemonConfigNamespace),
      });
    };
    const setFinalizers = async (job: ImagePullJob, finalizers: string[]) => {
      jobs.wrote(await rest.replace(resources.imagePullJobs, withTypeMeta(resources.imagePullJobs, { ...job, metadata: { ...job.metadata, finalizers } }), { fieldManager: FIELD_MANAGER }));
    };
    const withdrawAll = (uid: string) => forEachLimit(index.nodeImagesOf(uid), WRITE_CONCURRENCY,
      (name) => updateNodeImage(rest, nodeImages, name, (ni) => withoutJobTags(ni, uid)));
    /** Upstream's finalize: release the secret copies, then drop the protection finalizer. */
    const finalize = async (job: ImagePullJob) => {
      await applySecretPlan(rest, await secretPlan(job, true));
      const finalizers = job.metadata?.finalizers ?? [];
      if (finalizers.includes(Finalizer)) await setFinalizers(job, finalizers.filter((f) => f !== Finalizer));
    };

    const reconcile = async (key: string, { log }: ReconcileContext): Promise<Result | void> => {
      const job = jobs.get(key);
      if (!job) { lastTargets.delete(key); lastStatusWrite.delete(key); sources.forget(key); return; }
      const uid = job.metadata?.uid ?? '';
      if (job.metadata?.deletionTimestamp) {
        if (!job.metadata.finalizers?.includes(Finalizer)) return;
        await withdrawAll(uid);
        await finalize(job);
        return;
      }
      const now = clock.now();
      if (job.status?.completionTime) {
        await finalize(job);
        const ttl = job.spec?.completionPolicy?.ttlSecondsAfterFinished;
        if (ttl == null) return;
        const left = (parseMetaTime(job.status.completionTime) ?? now) + ttl * 1000 - now;
        if (left > 0) return { requeueAfterMs: left };
        await rest.delete(resources.imagePullJobs, { namespace: job.metadata?.namespace, name: job.metadata?.name ?? '' }, { uid });
        log.info('deleted ImagePullJob after ttlSecondsAfterFinished');
        return;
      }

      let image: { name: string; tag: string };
      let targets: NodeImage[];
      try {
        image = normalizeImageRef(job.spec?.image ?? '');
        targets = selectTargets(job, { nodeImage: (n) => nodeImages.get(n), nodeImages: () => nodeImages.list(),
          pods: (ns) => pods.list().filter((p) => p.metadata?.namespace === ns) });
      } catch (err) {
        if (err instanceof ImageReferenceError || err instanceof LabelSelectorError) throw new TerminalError(`invalid ImagePullJob: ${err.message}`, { cause: err });
        throw err;
      }
      // Targets, the status and the tag writes each walk every targeted NodeImage: a turn of the loop between them.
      await yieldToLoop();
      let current = job;
      if (!job.metadata?.finalizers?.includes(Finalizer)) {
        await setFinalizers(job, [...(job.metadata?.finalizers ?? []), Finalizer]);
        current = jobs.get(key) ?? job;
      }
      lastTargets.set(key, new Set(targets.map((t) => t.metadata!.name!)));

      const plan = await secretPlan(current, false);
      if (plan.missing.length) log.warn({ secrets: plan.missing }, 'pull secrets not found; pulling without them');
      if (plan.create.length || plan.update.length) {
        const ns = namespaces.get(config.daemonConfigNamespace);
        // Upstream's messages: the Get error, or namespaceIsActive's.
        if (!ns) throw new Error(`namespaces "${config.daemonConfigNamespace}" not found`);
        if (ns.metadata?.deletionTimestamp) throw new Error(`namespace(${config.daemonConfigNamespace}) is being deleted`);
      }
      await applySecretPlan(rest, plan);

      const nowTime = metaTime(now);
      const random = Math.random;
      const align = (t: Parameters<typeof alignTag>[0]) => alignTag(t, current, policy, random);
      const result = computeStatus({ job: current, image, targets, secrets: plan.refs, drifted: (t) => align(t) !== undefined, now, nowTime });
      await yieldToLoop();
      if (!result.status.completionTime) {
        const targetNames = lastTargets.get(key)!;
        const withdraw = (name: string) => (ni: NodeImage) => withoutJobTags(ni, uid, targetNames.has(name) ? image : undefined);
        // Decided from the view first: on a large job almost every NodeImage it owns needs nothing.
        const withdrawals = index.nodeImagesOf(uid).filter((name) => { const ni = nodeImages.get(name); return ni && withdraw(name)(ni) !== undefined; });
        await forEachLimit(withdrawals, WRITE_CONCURRENCY, (name) => updateNodeImage(rest, nodeImages, name, withdraw(name)));
        const room = Math.max(0, parallelismOf(current) - result.status.active);
        const owner = { apiVersion: KRUISE_API_VERSION_V1BETA1, kind: 'ImagePullJob', name: current.metadata?.name, namespace: current.metadata?.namespace, uid };
        const jobTag = { image, owner, secrets: plan.refs, job: current, now: nowTime, align };
        const writes = [...result.needsUpdate, ...result.notSynced.slice(0, room)];
        await forEachLimit(writes, WRITE_CONCURRENCY, (name) => updateNodeImage(rest, nodeImages, name,
          (ni) => withJobTag(ni, { ...jobTag, pullPolicy: tagPullPolicy(current, policy, random) })));
      }

      if (canonical(current.status) !== canonical(result.status)) {
        const wait = progressWriteDelay(current.status, result.status, lastStatusWrite.get(key), clock.now());
        if (wait > 0) return { requeueAfterMs: wait };
        lastStatusWrite.set(key, clock.now());
        jobs.wrote(await rest.replace(resources.imagePullJobs, withTypeMeta(resources.imagePullJobs, { ...current, status: result.status }), { subresource: 'status', fieldManager: FIELD_MANAGER }));
        return;
      }
      const deadline = current.spec?.completionPolicy?.activeDeadlineSeconds;
      if (current.spec?.completionPolicy?.type !== 'Never' && deadline != null) {
        const left = (parseMetaTime(result.status.startTime) ?? now) + deadline * 1000 - now;
        return { requeueAfterMs: Math.max(1000, left) };
      }
    };
    return async (key, ctx) => withSourceResync(await reconcile(key, ctx), jobs.get(key), config.daemonConfigNamespace);
  },
};

/** The controller with `options` (main.ts runs `imagePullJobController`, the defaults). */
export function makeImagePullJobController(options: ImagePullJobControllerOptions): Controller {
  return { ...imagePullJobController, setup: (deps, queue) => imagePullJobController.setup(deps, queue, options) };
}

/** JSON with sorted keys, for "did the status change". */
function canonical(v: unknown): string {
  return JSON.stringify(v ?? null, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val) ? Object.fromEntries(Object.entries(val).sort(([a], [b]) => (a < b ? -1 : 1))) : val);
}
