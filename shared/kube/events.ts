// core/v1 Events about an object, written the way client-go's EventRecorder writes them: the Event lives in the
// object's namespace ("default" for cluster-scoped objects), is named `<object>.<hex nanos>`, and carries
// `source {component, host}`. An identical event (same source, object, type, reason and message) seen again bumps
// `count` and `lastTimestamp` on the Event already written instead of creating another, as client-go's
// EventCorrelator does with its 4096-entry LRU. Recording never throws and never blocks the caller.
import { PatchStrategy, setHeaderOptions, type CoreV1Api, type CoreV1Event, type V1ObjectReference } from '@kubernetes/client-node';

export type EventType = 'Normal' | 'Warning';

/** The two writes the recorder needs; `coreEventsApi` adapts CoreV1Api, tests pass a fake. */
export interface EventsApi {
  create(namespace: string, event: CoreV1Event): Promise<void>;
  /** JSON merge patch; rejects with an error whose `code` is 404 when the Event is gone (expired by TTL). */
  patch(namespace: string, name: string, patch: object): Promise<void>;
}

export function coreEventsApi(core: CoreV1Api): EventsApi {
  return {
    create: async (namespace, body) => { await core.createNamespacedEvent({ namespace, body }); },
    patch: async (namespace, name, body) => {
      await core.patchNamespacedEvent({ namespace, name, body }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    },
  };
}

export interface EventRecorderOptions {
  api: EventsApi;
  /** `source.component` / `reportingComponent`, e.g. `kruise-daemon-imagepuller`. */
  component: string;
  /** `source.host` / `reportingInstance`, e.g. the node name. */
  host?: string;
  now?: () => number;
  log: { warn(obj: object, msg: string): void };
}

interface Written {
  namespace: string;
  name: string;
  count: number;
}

const LRU_SIZE = 4096;
/** client-go's broadcaster drops events beyond a 1000-deep queue rather than grow without bound. */
const MAX_PENDING = 1000;

export class EventRecorder {
  private readonly written = new Map<string, Written>();
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;
  private seq = 0;
  private readonly now: () => number;

  constructor(private readonly opts: EventRecorderOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Queues the write; failures are logged (by reason and object, never more) and dropped. */
  record(involvedObject: V1ObjectReference, type: EventType, reason: string, message: string): void {
    if (this.pending >= MAX_PENDING) {
      this.opts.log.warn({ reason, object: involvedObject.name }, 'event queue full; dropping event');
      return;
    }
    this.pending++;
    const at = this.now();
    this.chain = this.chain
      .then(() => this.write(involvedObject, type, reason, message, at))
      .catch((err: unknown) => {
        this.opts.log.warn({ reason, kind: involvedObject.kind, object: involvedObject.name, error: (err as Error)?.message }, 'cannot write event');
      })
      .finally(() => { this.pending--; });
  }

  /** Resolves once every event recorded so far has been written or dropped. */
  flush(): Promise<void> {
    return this.chain;
  }

  private async write(ref: V1ObjectReference, type: EventType, reason: string, message: string, at: number): Promise<void> {
    const { component, host } = this.opts;
    const key = JSON.stringify([component, host, ref.apiVersion, ref.kind, ref.namespace, ref.name, ref.uid, type, reason, message]);
    const seen = this.written.get(key);
    const stamp = new Date(at);
    if (seen) {
      try {
        await this.opts.api.patch(seen.namespace, seen.name, { count: seen.count + 1, lastTimestamp: stamp.toISOString() });
        seen.count++;
        this.touch(key, seen);
        return;
      } catch (err) {
        if ((err as { code?: number })?.code !== 404) throw err;
        this.written.delete(key);
      }
    }
    const namespace = ref.namespace || 'default';
    // client-go names events `<name>.<UnixNano in hex>`; the sequence keeps same-millisecond events apart.
    const name = `${ref.name}.${(BigInt(at) * 1_000_000n + BigInt(this.seq++ % 1_000_000)).toString(16)}`;
    await this.opts.api.create(namespace, {
      metadata: { name, namespace },
      involvedObject: ref,
      type, reason, message,
      source: { component, ...(host ? { host } : {}) },
      firstTimestamp: stamp, lastTimestamp: stamp, count: 1,
      reportingComponent: component, reportingInstance: host ?? '',
    });
    this.touch(key, { namespace, name, count: 1 });
  }

  private touch(key: string, w: Written): void {
    this.written.delete(key);
    this.written.set(key, w);
    if (this.written.size > LRU_SIZE) this.written.delete(this.written.keys().next().value as string);
  }
}
