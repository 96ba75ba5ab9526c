// Wiring of the node's image puller (spec/daemon-and-controllers.md §1.5, §2.4): an informer on the one NodeImage
// named after the node, an informer on Secrets in the daemon's namespace, and ImagePuller driven by a keyed queue.
import type { V1Secret } from '@kubernetes/client-node';
import type { NodeImage } from '../../shared/api/node-image.js';
import { realClock } from '../../shared/clock.js';
import { eventRecorder } from '../../shared/kube/event-recorder.js';
import { resources } from '../../shared/kube/resources.js';
import { WorkQueue } from '../../shared/reconcile/queue.js';
import { runReconciler } from '../../shared/reconcile/runner.js';
import type { DaemonContext, NodeController } from '../context.js';
import { syncedCheck } from '../health.js';
import { daemonRateLimiter } from '../rate-limiter.js';
import type { PullEvent } from './events.js';
import { ImagePuller } from './puller.js';
import { realClock as pullClock } from './pull-worker.js';
import { nodeImageReconciler } from './reconciler.js';
import { secretLookup } from './secret-lookup.js';
import { nodeImageStatusWriter, restNodeImageStatusApi } from './status-writer.js';

export const IMAGE_PULLER_COMPONENT = 'kruise-daemon-imagepuller';

/** Resolves true when `p` does, or false as soon as `signal` aborts. */
function until(p: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return Promise.race([p.then(() => true), new Promise<boolean>((r) => signal.addEventListener('abort', () => r(false), { once: true }))]);
}

export function startImagePuller(ctx: DaemonContext): NodeController {
  const { config, signal } = ctx;
  const { nodeName, namespace } = config;
  const log = ctx.log.child({ controller: 'imagepuller' });
  const nodeImages = ctx.informers.cache<NodeImage & { metadata: object }>(resources.nodeImages, { fieldSelector: `metadata.name=${nodeName}` });
  const secrets = ctx.informers.cache<V1Secret>(resources.secrets, { namespace });

  const queue = new WorkQueue({ clock: realClock, rateLimiter: daemonRateLimiter() });
  const recorder = eventRecorder({ rest: ctx.rest, component: IMAGE_PULLER_COMPONENT, host: nodeName, log });
  const emitEvent = ({ involvedObject: o, type, reason, message }: PullEvent) =>
    recorder.event({ apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.name, namespace: o.namespace, uid: o.uid } }, type, reason, message);
  const { pullsInFlight, pullDuration } = ctx.metrics;
  const puller = new ImagePuller({
    images: ctx.cri.images,
    clock: pullClock,
    maxConcurrentPulls: config.maxConcurrentPulls,
    getPullSecrets: secretLookup(secrets, namespace, log),
    emitEvent,
    writeStatus: nodeImageStatusWriter(restNodeImageStatusApi(ctx.rest)),
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
    if (await until(Promise.all([nodeImages.synced, secrets.synced]), signal)) {
      log.info({ nodeImage: nodeName, secretsNamespace: namespace }, 'caches synced; starting');
      queue.add(nodeName);
    }
    await runReconciler({
      name: 'imagepuller', queue, workers: 1, log: ctx.log, metrics: ctx.metrics.registry, signal,
      reconcile: nodeImageReconciler({ get: (name) => nodeImages.get(name), puller }),
    });
    // Pulls left running would publish into a stopped queue; the next daemon pulls again what was unfinished.
    puller.stop();
  })();

  return {
    name: 'imagepuller',
    healthChecks: [syncedCheck('nodeImageInformerSynced', nodeImages.isSynced), syncedCheck('pullSecretInformerSynced', secrets.isSynced)],
    done,
  };
}
