// Wiring of the node's image puller (spec/daemon-and-controllers.md §1.5, §2.4): an informer on the one NodeImage
// named after the node, an informer on Secrets in the daemon's namespace, and ImagePuller driven by a keyed queue.
import type { KubernetesListObject, KubernetesObject, V1Secret } from '@kubernetes/client-node';
import { KRUISE_GROUP } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { realClock } from '../../shared/clock.js';
import { coreEventsApi, EventRecorder } from '../../shared/kube/events.js';
import { makeListWatch, startInformer } from '../../shared/kube/informer.js';
import { WorkQueue } from '../../shared/reconcile/queue.js';
import { runReconciler } from '../../shared/reconcile/runner.js';
import type { DaemonContext, NodeController } from '../context.js';
import { syncedCheck } from '../health.js';
import { daemonRateLimiter } from '../rate-limiter.js';
import { ImagePuller } from './puller.js';
import { realClock as pullClock } from './pull-worker.js';
import { nodeImageReconciler } from './reconciler.js';
import { secretLookup } from './secret-lookup.js';
import { customNodeImageStatusApi, nodeImageStatusWriter } from './status-writer.js';

export const IMAGE_PULLER_COMPONENT = 'kruise-daemon-imagepuller';

/** Resolves when `p` does, or (with false) as soon as `signal` aborts. */
function until(p: Promise<void>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return Promise.race([p.then(() => true), new Promise<boolean>((r) => signal.addEventListener('abort', () => r(false), { once: true }))]);
}

export function startImagePuller(ctx: DaemonContext): NodeController {
  const { kube, config, signal } = ctx;
  const { nodeName, namespace } = config;
  const log = ctx.log.child({ controller: 'imagepuller' });
  const fieldSelector = `metadata.name=${nodeName}`;
  const nodeImages = startInformer(
    makeListWatch<NodeImage & KubernetesObject>(kube.kc, `/apis/${KRUISE_GROUP}/v1alpha1/nodeimages`, async () =>
      (await kube.custom.listClusterCustomObject({ group: KRUISE_GROUP, version: 'v1alpha1', plural: 'nodeimages', fieldSelector })) as KubernetesListObject<NodeImage & KubernetesObject>,
    { fieldSelector }),
    signal, { log: log.child({ informer: 'nodeimages' }) },
  );
  const secrets = startInformer(
    makeListWatch<V1Secret>(kube.kc, `/api/v1/namespaces/${namespace}/secrets`, () => kube.core.listNamespacedSecret({ namespace })),
    signal, { log: log.child({ informer: 'secrets' }) },
  );

  const queue = new WorkQueue({ clock: realClock, rateLimiter: daemonRateLimiter() });
  const recorder = new EventRecorder({ api: coreEventsApi(kube.core), component: IMAGE_PULLER_COMPONENT, host: nodeName, log });
  const { pullsInFlight, pullDuration } = ctx.metrics;
  const puller = new ImagePuller({
    images: ctx.cri.images,
    clock: pullClock,
    maxConcurrentPulls: config.maxConcurrentPulls,
    getPullSecrets: secretLookup(secrets, namespace, log),
    emitEvent: (e) => recorder.record(e.involvedObject, e.type, e.reason, e.message),
    writeStatus: nodeImageStatusWriter(customNodeImageStatusApi(kube.custom)),
    onPullUpdate: () => queue.add(nodeName),
    observer: {
      running: (d) => pullsInFlight.inc(d),
      finished: (result, ms) => pullDuration.observe({ result }, ms / 1000),
    },
    log,
  });
  // Level-based: any change of the node's NodeImage (ours included) just asks for one more sync of the one key.
  nodeImages.onChange(() => queue.add(nodeName));

  const done = (async () => {
    if (await until(Promise.all([nodeImages.synced, secrets.synced]).then(() => undefined), signal)) {
      log.info({ nodeImage: nodeName, secretsNamespace: namespace }, 'caches synced; starting');
      queue.add(nodeName);
    }
    await runReconciler({
      name: 'imagepuller', queue, workers: 1, log: ctx.log, metrics: ctx.metrics.registry, signal,
      reconcile: nodeImageReconciler({ get: (name) => nodeImages.get(name), puller }),
    });
    // Pulls left running would publish into a stopped queue; the next daemon re-pulls what was unfinished.
    puller.stop();
    await recorder.flush();
  })();

  return {
    name: 'imagepuller',
    healthChecks: [syncedCheck('nodeImageInformerSynced', nodeImages.isSynced), syncedCheck('pullSecretInformerSynced', secrets.isSynced)],
    done,
  };
}
