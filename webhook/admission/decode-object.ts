// The typed-decoding step upstream gets for free from Go's json.Unmarshal: before a pure domain function walks
// request.object, check the JSON *types* of the fields it walks, so `containers: 3` is a 400 naming the field instead
// of a TypeError surfacing as a 500. Semantics (names, ranges, enums) stay with the validators. Unknown fields are
// never looked at, so they survive into the diff.
//
// A tiny hand-written shape checker rather than TypeBox: /mutate-pod is on the hot path, and walking only the
// declared fields with no allocation on success is cheaper than a compiled union-heavy schema, and it lets the
// message say "must be an array of objects (got number)" rather than "Expected union value".
import { GoJsonTypeError, goJson } from '../../shared/domain/go-json.js';
import { canonicalQuantity, QuantityParseError } from '../../shared/domain/quantity.js';
import { podTemplateGoSchema } from '../../shared/domain/cloneset/pod-template-go-schema.js';
import { sidecarContainerSchema } from '../../shared/domain/sidecarset-hash.js';
import { AdmissionDeniedError } from '../../shared/errors.js';
import { MAX_NESTING_DEPTH, tooDeepPath } from './depth.js';

export type Shape =
  | { kind: 'string' | 'number' | 'boolean' | 'intOrString' | 'quantity' }
  | { kind: 'object'; fields: Readonly<Record<string, Shape>>; keys: readonly string[]; shapes: readonly Shape[] }
  | { kind: 'array'; of: Shape }
  | { kind: 'map'; of: Shape };

const str: Shape = { kind: 'string' };
const num: Shape = { kind: 'number' };
const bool: Shape = { kind: 'boolean' };
const intOrString: Shape = { kind: 'intOrString' };
const quantity: Shape = { kind: 'quantity' };
// keys/shapes are the fields unpacked once, so the hot loop indexes arrays instead of iterating a record.
const obj = (fields: Record<string, Shape> = {}): Shape => ({ kind: 'object', fields, keys: Object.keys(fields), shapes: Object.values(fields) });
const arr = (of: Shape): Shape => ({ kind: 'array', of });
const map = (of: Shape): Shape => ({ kind: 'map', of });

function describe(s: Shape, plural = false): string {
  switch (s.kind) {
    case 'string': return plural ? 'strings' : 'a string';
    case 'number': return plural ? 'numbers' : 'a number';
    case 'boolean': return plural ? 'booleans' : 'a boolean';
    case 'intOrString': return plural ? 'integers or strings' : 'an integer or a string';
    case 'quantity': return plural ? 'quantities (strings or numbers)' : 'a quantity (a string or a number)';
    case 'object': return plural ? 'objects' : 'an object';
    case 'array': return `${plural ? 'arrays' : 'an array'} of ${describe(s.of, true)}`;
    case 'map': return `${plural ? 'maps' : 'a map'} of ${describe(s.of, true)}`;
  }
}

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const MAX_PROBLEMS = 3;

const FIELD = 0;
const INDEX = 1;
const KEY = 2;

/**
 * The walk keeps the path as a stack of segments and renders it only for a problem, so a conforming pod costs no
 * string building (this runs on every pod admission).
 */
class Walk {
  readonly out: string[] = [];
  private readonly segs: (string | number)[] = [];
  private readonly kinds: number[] = [];

  push(seg: string | number, kind: number): void { this.segs.push(seg); this.kinds.push(kind); }
  pop(): void { this.segs.pop(); this.kinds.pop(); }
  path(): string {
    let p = '';
    for (let i = 0; i < this.segs.length; i++) {
      const k = this.kinds[i];
      p += k === FIELD ? (p ? `.${this.segs[i]}` : String(this.segs[i])) : `[${this.segs[i]}]`;
    }
    return p || '<root>';
  }
}

/**
 * Appends "<path>: must be <type> (got <type>)" for each mismatch, stopping after MAX_PROBLEMS. Field values may be
 * null (Go decodes null as the zero value, and the domain code treats both alike via `??`); array elements and map
 * values may not, because the domain code dereferences them.
 */
function check(v: unknown, s: Shape, w: Walk): void {
  let ok: boolean;
  switch (s.kind) {
    case 'string': ok = typeof v === 'string'; break;
    case 'number': ok = typeof v === 'number'; break;
    case 'boolean': ok = typeof v === 'boolean'; break;
    case 'intOrString': ok = typeof v === 'string' || Number.isInteger(v); break;
    case 'quantity': ok = typeof v === 'string' || typeof v === 'number'; break;
    case 'object':
      if (!isObject(v)) { ok = false; break; }
      for (let i = 0; i < s.keys.length; i++) {
        const child = v[s.keys[i]!];
        if (child === undefined || child === null) continue;
        w.push(s.keys[i]!, FIELD);
        check(child, s.shapes[i]!, w);
        w.pop();
        if (w.out.length >= MAX_PROBLEMS) return;
      }
      return;
    case 'array':
      if (!Array.isArray(v)) { ok = false; break; }
      for (let i = 0; i < v.length; i++) {
        w.push(i, INDEX);
        check(v[i], s.of, w);
        w.pop();
        if (w.out.length >= MAX_PROBLEMS) return;
      }
      return;
    case 'map':
      if (!isObject(v)) { ok = false; break; }
      for (const key of Object.keys(v)) {
        w.push(key, KEY);
        check(v[key], s.of, w);
        w.pop();
        if (w.out.length >= MAX_PROBLEMS) return;
      }
      return;
  }
  if (!ok) w.out.push(`${w.path()}: must be ${describe(s)} (got ${jsonType(v)})`);
}

/** The problems of `value` against `shape`, at most MAX_PROBLEMS of them; empty when it conforms. */
export function shapeProblems(value: unknown, shape: Shape): string[] {
  const w = new Walk();
  check(value, shape, w);
  return w.out;
}

// ---- Shapes of the fields the domain code walks. Kept to those fields: everything else passes unchecked. ----

const labelSelector = obj({
  matchLabels: map(str),
  matchExpressions: arr(obj({ key: str, operator: str, values: arr(str) })),
});
const metadata = obj({
  name: str, namespace: str, generateName: str, labels: map(str), annotations: map(str), finalizers: arr(str),
  ownerReferences: arr(obj({ apiVersion: str, kind: str, name: str, uid: str, controller: bool, blockOwnerDeletion: bool })),
});
const envVar = obj({ name: str, value: str, valueFrom: obj({ fieldRef: obj({ fieldPath: str }) }) });
const container = obj({
  name: str,
  image: str,
  imagePullPolicy: str,
  command: arr(str),
  args: arr(str),
  env: arr(envVar),
  envFrom: arr(obj()),
  volumeMounts: arr(obj({ name: str, mountPath: str, subPath: str, subPathExpr: str })),
  volumeDevices: arr(obj({ name: str, devicePath: str })),
  ports: arr(obj({ name: str, containerPort: num, hostPort: num, protocol: str })),
  resources: obj({ limits: map(quantity), requests: map(quantity) }),
  lifecycle: obj({ postStart: obj(), preStop: obj() }),
  livenessProbe: obj(),
  readinessProbe: obj(),
  startupProbe: obj(),
  restartPolicy: str,
});
const volume = obj({ name: str });
const localObjectRefs = arr(obj({ name: str }));
const podSpec = obj({
  containers: arr(container),
  initContainers: arr(container),
  volumes: arr(volume),
  imagePullSecrets: localObjectRefs,
  nodeName: str,
});

export const PodShape: Shape = obj({ kind: str, metadata, spec: podSpec });

const sidecarContainer = obj({
  ...(container as { fields: Record<string, Shape> }).fields,
  podInjectPolicy: str,
  shareVolumePolicy: obj({ type: str }),
  shareVolumeDevicePolicy: obj({ type: str }),
  transferEnv: arr(obj({ sourceContainerName: str, sourceContainerNameFrom: obj(), envName: str, envNames: arr(str) })),
  upgradeStrategy: obj({ upgradeType: str, hotUpgradeEmptyImage: str }),
  resourcesPolicy: obj(),
});

export const SidecarSetShape: Shape = obj({
  metadata,
  spec: obj({
    selector: labelSelector,
    namespace: str,
    namespaceSelector: labelSelector,
    customVersion: str,
    containers: arr(sidecarContainer),
    initContainers: arr(sidecarContainer),
    volumes: arr(volume),
    imagePullSecrets: localObjectRefs,
    updateStrategy: obj({ type: str, paused: bool, partition: intOrString, maxUnavailable: intOrString, selector: labelSelector, scatterStrategy: arr(obj({ key: str, value: str })), priorityStrategy: obj() }),
    injectionStrategy: obj({ paused: bool, revision: obj({ revisionName: str, customVersion: str, policy: str }) }),
    patchPodMetadata: arr(obj({ annotations: map(str), labels: map(str), patchPolicy: str })),
    revisionHistoryLimit: num,
  }),
});

const pullPolicy = obj({ timeoutSeconds: num, backoffLimit: num, ttlSecondsAfterFinished: num, activeDeadlineSeconds: num });
const sandboxConfig = obj({ labels: map(str), annotations: map(str) });

const imagePullJobTemplate = {
  pullSecrets: arr(str),
  selector: obj({ ...(labelSelector as { fields: Record<string, Shape> }).fields, names: arr(str) }),
  podSelector: labelSelector,
  parallelism: intOrString,
  pullPolicy,
  completionPolicy: obj({ type: str, activeDeadlineSeconds: num, ttlSecondsAfterFinished: num }),
  sandboxConfig,
  imagePullPolicy: str,
};

export const ImagePullJobShape: Shape = obj({ metadata, spec: obj({ image: str, ...imagePullJobTemplate }) });
export const ImageListPullJobShape: Shape = obj({ metadata, spec: obj({ images: arr(str), ...imagePullJobTemplate }) });

const tagSpec = obj({ tag: str, createdAt: str, pullPolicy, ownerReferences: arr(obj()), version: num, imagePullPolicy: str });
const tagStatus = obj({ tag: str, phase: str });

export const NodeImageShape: Shape = obj({
  metadata,
  spec: obj({ images: map(obj({ pullSecrets: arr(obj({ name: str, namespace: str, mode: str })), tags: arr(tagSpec), sandboxConfig })) }),
  status: obj({ imageStatuses: map(obj({ tags: arr(tagStatus) })) }),
});

export const ContainerRecreateRequestShape: Shape = obj({
  metadata,
  spec: obj({
    podName: str,
    containers: arr(obj({ name: str, preStop: obj(), ports: arr(obj()), statusContext: obj({ containerID: str, restartCount: num }) })),
    strategy: obj({ failurePolicy: str, orderedRecreate: bool, forceRecreate: bool, terminationGracePeriodSeconds: num, unreadyGracePeriodSeconds: num, minStartedSeconds: num }),
    activeDeadlineSeconds: num,
    ttlSecondsAfterFinished: num,
  }),
});

const namespaceList = obj({ list: arr(obj({ name: str })) });

export const ResourceDistributionShape: Shape = obj({
  metadata,
  spec: obj({
    resource: obj({ apiVersion: str, kind: str, metadata: obj({ name: str, namespace: str }) }),
    targets: obj({ allNamespaces: bool, excludedNamespaces: namespaceList, includedNamespaces: namespaceList, namespaceLabelSelector: labelSelector }),
  }),
});

// The probe's handlers are walked by the validator (exec.command, httpGet.path/port/host/scheme/httpHeaders,
// tcpSocket.port/host) and its integers compared; the rest of core/v1 Probe passes unchecked.
const probeSpec = obj({
  exec: obj({ command: arr(str) }),
  httpGet: obj({ path: str, port: intOrString, host: str, scheme: str, httpHeaders: arr(obj({ name: str, value: str })) }),
  tcpSocket: obj({ port: intOrString, host: str }),
  grpc: obj({ port: num, service: str }),
  initialDelaySeconds: num, timeoutSeconds: num, periodSeconds: num, successThreshold: num, failureThreshold: num, terminationGracePeriodSeconds: num,
});

export const PodProbeMarkerShape: Shape = obj({
  metadata,
  spec: obj({
    selector: labelSelector,
    probes: arr(obj({
      name: str, containerName: str, probe: probeSpec, podConditionType: str,
      markerPolicy: arr(obj({ state: str, labels: map(str), annotations: map(str) })),
    })),
  }),
});

const nodeSelectorTerm = obj({
  matchExpressions: arr(obj({ key: str, operator: str, values: arr(str) })),
  matchFields: arr(obj({ key: str, operator: str, values: arr(str) })),
});
const subsetStatus = obj({
  name: str, replicas: num, missingReplicas: num, creatingPods: map(str), deletingPods: map(str),
  conditions: arr(obj({ type: str, status: str, lastTransitionTime: str, reason: str, message: str })),
});

export const WorkloadSpreadShape: Shape = obj({
  metadata,
  spec: obj({
    targetRef: obj({ apiVersion: str, kind: str, name: str }),
    targetFilter: obj({ selector: labelSelector, replicasPathList: arr(str) }),
    subsets: arr(obj({
      name: str,
      requiredNodeSelectorTerm: nodeSelectorTerm,
      preferredNodeSelectorTerms: arr(obj({ weight: num, preference: nodeSelectorTerm })),
      tolerations: arr(obj({ key: str, operator: str, value: str, effect: str, tolerationSeconds: num })),
      maxReplicas: intOrString,
    })),
    scheduleStrategy: obj({ type: str, adaptive: obj({ rescheduleCriticalSeconds: num, disableSimulationSchedule: bool }) }),
  }),
  status: obj({ subsetStatuses: arr(subsetStatus), versionedSubsetStatuses: map(arr(subsetStatus)) }),
});

/** One kind's decode step: the shape check, then (off the hot path only) a deeper check of its own. */
export interface ObjectDecoder {
  kind: string;
  shape: Shape;
  /** Further problems, run only once the shape conforms. */
  deep?: (value: Record<string, unknown>) => string[];
}

/** A field error as the validators word theirs (`…limits[cpu]: Invalid value: "1e…": …`), the input quoted in bounds. */
function quantityProblem(field: string, err: QuantityParseError): string {
  const shown = err.input.length > 64 ? `${err.input.slice(0, 64)}…` : err.input;
  return `${field}${err.path ?? ''}: Invalid value: ${JSON.stringify(shown)}: ${err.message}`;
}

/**
 * SidecarSet defaulting round-trips every container through Go's decoder emulation (shared/domain/go-json.ts), which
 * knows all of corev1.Container; running it here turns e.g. `securityContext: 3` or a bad quantity into a 400 up
 * front. Not done for pods: they come typed from the apiserver and sit on the hot path.
 */
function sidecarContainerProblems(value: Record<string, unknown>): string[] {
  const spec = value.spec as Record<string, unknown> | null | undefined;
  const out: string[] = [];
  for (const key of ['containers', 'initContainers']) {
    try {
      goJson(spec?.[key], '[]SidecarContainer', sidecarContainerSchema);
    } catch (err) {
      if (err instanceof GoJsonTypeError) out.push(`spec.${key}${err.path}: ${err.message.replace(/ at \S*$/, '')}`);
      else if (err instanceof QuantityParseError) out.push(quantityProblem(`spec.${key}`, err));
      else throw err;
    }
  }
  return out;
}

export const CloneSetShape: Shape = obj({
  metadata,
  spec: obj({
    replicas: num,
    selector: labelSelector,
    template: obj({ metadata, spec: podSpec }),
    volumeClaimTemplates: arr(obj()),
    scaleStrategy: obj({ podsToDelete: arr(str), maxUnavailable: intOrString, disablePVCReuse: bool }),
    updateStrategy: obj({
      type: str, partition: intOrString, maxUnavailable: intOrString, maxSurge: intOrString, paused: bool,
      priorityStrategy: obj({ orderPriority: arr(obj({ orderedKey: str })), weightPriority: arr(obj({ weight: num, matchSelector: labelSelector })) }),
      scatterStrategy: arr(obj({ key: str, value: str })),
      inPlaceUpdateStrategy: obj({ gracePeriodSeconds: num }),
    }),
    revisionHistoryLimit: num,
    minReadySeconds: num,
    lifecycle: obj(),
  }),
});

/** The template goes through Go's decoder emulation (defaulting and the revision hash do), so bad types are a 400. */
function cloneSetTemplateProblems(value: Record<string, unknown>): string[] {
  const spec = value.spec as Record<string, unknown> | null | undefined;
  try {
    goJson(spec?.template, 'PodTemplateSpec', podTemplateGoSchema);
  } catch (err) {
    if (err instanceof GoJsonTypeError) return [`spec.template${err.path}: ${err.message.replace(/ at \S*$/, '')}`];
    if (err instanceof QuantityParseError) return [quantityProblem('spec.template', err)];
    throw err;
  }
  return claimTemplateQuantityProblems(spec?.volumeClaimTemplates);
}

/** Go decodes the claim templates' resource lists as Quantities too (the defaulter then rounds them). */
function claimTemplateQuantityProblems(templates: unknown): string[] {
  if (!Array.isArray(templates)) return [];
  const out: string[] = [];
  templates.forEach((v: { spec?: { resources?: Record<string, unknown> }; status?: Record<string, unknown> } | null, i) => {
    const lists: [string, unknown][] = [['spec.resources.limits', v?.spec?.resources?.limits], ['spec.resources.requests', v?.spec?.resources?.requests], ['status.capacity', v?.status?.capacity]];
    for (const [field, list] of lists) {
      if (!list || typeof list !== 'object') continue;
      for (const [name, q] of Object.entries(list)) {
        if (typeof q !== 'string' && typeof q !== 'number') continue;
        try { canonicalQuantity(q); } catch (err) {
          if (!(err instanceof QuantityParseError)) throw err;
          out.push(quantityProblem(`spec.volumeClaimTemplates[${i}].${field}[${name}]`, err));
        }
      }
    }
  });
  return out;
}

export const PodUnavailableBudgetShape: Shape = obj({
  metadata,
  spec: obj({ selector: labelSelector, targetRef: obj({ apiVersion: str, kind: str, name: str }), maxUnavailable: intOrString, minAvailable: intOrString }),
});
export const PodDecoder: ObjectDecoder = { kind: 'Pod', shape: PodShape };
export const PodUnavailableBudgetDecoder: ObjectDecoder = { kind: 'PodUnavailableBudget', shape: PodUnavailableBudgetShape };
export const CloneSetDecoder: ObjectDecoder = { kind: 'CloneSet', shape: CloneSetShape, deep: cloneSetTemplateProblems };
export const SidecarSetDecoder: ObjectDecoder = { kind: 'SidecarSet', shape: SidecarSetShape, deep: sidecarContainerProblems };
export const ImagePullJobDecoder: ObjectDecoder = { kind: 'ImagePullJob', shape: ImagePullJobShape };
export const ImageListPullJobDecoder: ObjectDecoder = { kind: 'ImageListPullJob', shape: ImageListPullJobShape };
export const NodeImageDecoder: ObjectDecoder = { kind: 'NodeImage', shape: NodeImageShape };
export const ContainerRecreateRequestDecoder: ObjectDecoder = { kind: 'ContainerRecreateRequest', shape: ContainerRecreateRequestShape };
export const ResourceDistributionDecoder: ObjectDecoder = { kind: 'ResourceDistribution', shape: ResourceDistributionShape };
export const PodProbeMarkerDecoder: ObjectDecoder = { kind: 'PodProbeMarker', shape: PodProbeMarkerShape };
export const WorkloadSpreadDecoder: ObjectDecoder = { kind: 'WorkloadSpread', shape: WorkloadSpreadShape };
/** policy/v1 Eviction, the object of a pods/eviction CREATE. */
export const EvictionDecoder: ObjectDecoder = { kind: 'Eviction', shape: obj({ metadata, deleteOptions: obj({ dryRun: arr(str) }) }) };

/**
 * Throws AdmissionDeniedError(400) naming the first few wrong-typed fields of `value`, or the first place it nests
 * deeper than MAX_NESTING_DEPTH (depth.ts); `which` names it under `request.` (object, oldObject, or a ConversionReview's
 * objects[i]). Absent values pass (the handlers decide what absence means).
 */
export function decodeObject<T>(value: unknown, decoder: ObjectDecoder, which = 'object'): T {
  if (value === undefined || value === null) return value as T;
  if (!isObject(value)) throw new AdmissionDeniedError(`request.${which} must be a JSON object (got ${jsonType(value)})`, 400);
  const deep = tooDeepPath(value);
  if (deep !== undefined) {
    throw new AdmissionDeniedError(`request.${which} is nested more than ${MAX_NESTING_DEPTH} levels deep (at ${deep}); no valid ${decoder.kind} nests that deep`, 400);
  }
  let problems = shapeProblems(value, decoder.shape);
  if (problems.length === 0 && decoder.deep) problems = decoder.deep(value);
  if (problems.length > 0) throw new AdmissionDeniedError(`request.${which} is not a valid ${decoder.kind}: ${problems.join('; ')}`, 400);
  return value as T;
}
