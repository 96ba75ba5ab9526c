// Numeric extremes, long names and long lists, placed where each kind reads them (issue 23 item 4): quantities with
// absurd exponents (review N-C1), int-or-string values with fractional or huge percentages, replicas, parallelism,
// partition and maxUnavailable at and past int32, names past every length limit, lists of thousands. Shared by the
// webhook fuzzer (webhook/fuzz/generate.ts) and the controller fuzzer (controller/fuzz/).

export type Random = () => number;
export const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

/**
 * A quantity string: ordinary, or an absurd exponent (1e±10^k, ±9999999999, int32/int64 edges), suffix combos, and
 * (unless `short`, for items of long lists) thousands of digits.
 */
export function extremeQuantity(r: Random, short = false): string | number {
  const k = 10 ** Math.floor(r() * 10);
  if (short) return pick(r, ['1', '500m', '1.5Gi', `1e${k}`, `1e-${k}`, `1.5e-${k}`, '1e9999999999', '1e-9999999999', '10e2147483647', '1e99999999999999999999']);
  return pick(r, [
    '1', '500m', '1.5Gi', '100Mi', 0.5, 1e21, -1,
    `1e${k}`, `1e-${k}`, `1.5e${k}`, `-7e-${k}`, `123456789012345678901e${k}`, `0e-${k}`, `.5E+${k}`,
    '1e9999999999', '1e-9999999999', '1e2147483647', '1e-2147483648', '10e2147483647', '1e99999999999999999999',
    '1ke3', '1Kie-30000000', '1e30000000Ki', '9Ei', '1e-20', `${'9'.repeat(999)}e-100000000`, `1${'0'.repeat(5_000)}`,
    `0.${'0'.repeat(5_000)}1`, '9'.repeat(1_001), `1e-${'0'.repeat(1_000)}5`, ' 1 ', 'abc', '',
  ]);
}

/**
 * Whether values must pass the CRD's OpenAPI schema (`typed`: what a stored object can hold, for the controllers) or
 * may be anything JSON (`raw`: what a review sent straight to the webhook port can hold).
 */
export type Typing = 'typed' | 'raw';

/** An int-or-string: percentages fractional, negative, huge or malformed; integers at and past int32. */
export function extremeIntOrString(r: Random, typing: Typing = 'raw'): unknown {
  const typed = [0, 1, -1, 2 ** 31 - 1, 2 ** 31, 2 ** 53, -(2 ** 31), '0%', '50%', '12.5%', '0.0001%', '-1%', '100000%', '1e9%', '%', '10', 'abc', `${'9'.repeat(400)}%`];
  return pick(r, typing === 'typed' ? typed : [...typed, 1.5, 1e21, null, true, {}]);
}

/** A count (replicas, parallelism, seconds, limits): zero, negative, fractional, int32 edges, huge. */
export function extremeCount(r: Random, typing: Typing = 'raw'): unknown {
  const typed = [0, 1, 3, -1, 100, 1_000, 100_000, 2 ** 31 - 1, 2 ** 31, 2 ** 53, -(2 ** 53)];
  return pick(r, typing === 'typed' ? typed : [...typed, 1.5, 1e21, '3', null]);
}

/** A name: valid, at the 63 and 253 limits, or far past them (100 KB), or with bad characters. */
export function longName(r: Random): string {
  return pick(r, ['a', 'a'.repeat(63), 'a'.repeat(64), 'a'.repeat(253), 'a'.repeat(254), 'a'.repeat(10_000), `${'ab'.repeat(50_000)}c`, 'Bad_Name', '-a-', 'a.b']);
}

/** `n` items made by `make`, n drawn from small to many (thousands now and then: they are the slow cases). */
export function longList<T>(r: Random, make: (i: number) => T): T[] {
  const n = r() < 0.05 ? pick(r, [1_000, 5_000]) : pick(r, [0, 1, 2, 64, 65, 200]);
  return Array.from({ length: n }, (_, i) => make(i));
}

type Json = Record<string, unknown>;
type Setter = (o: Json, r: Random, typing: Typing) => void;

/** Sets `path` in `o` (creating objects and one-element arrays on the way) to `value`. */
export function setPath(o: Json, path: readonly (string | number)[], value: unknown): void {
  let node: Json = o;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    let next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = next = typeof path[i + 1] === 'number' ? [] : {};
    node = next as Json;
  }
  node[path[path.length - 1]!] = value;
}

const quantityAt = (...path: (string | number)[]): Setter => (o, r) => setPath(o, path, extremeQuantity(r));
const intOrStringAt = (...path: (string | number)[]): Setter => (o, r, t) => setPath(o, path, extremeIntOrString(r, t));
const countAt = (...path: (string | number)[]): Setter => (o, r, t) => setPath(o, path, extremeCount(r, t));
const nameAt = (...path: (string | number)[]): Setter => (o, r) => setPath(o, path, longName(r));
const listAt = (make: (i: number, r: Random) => unknown, ...path: (string | number)[]): Setter => (o, r) => setPath(o, path, longList(r, (i) => make(i, r)));

const resources = (prefix: (string | number)[]): Setter[] => [
  quantityAt(...prefix, 'resources', 'limits', 'cpu'), quantityAt(...prefix, 'resources', 'requests', 'cpu'),
  quantityAt(...prefix, 'resources', 'limits', 'memory'), quantityAt(...prefix, 'resources', 'requests', 'ephemeral-storage'),
  (o, r) => setPath(o, [...prefix, 'resources'], { limits: { cpu: extremeQuantity(r) }, requests: { cpu: extremeQuantity(r) } }),
];
const container = (i: number, r: Random) => ({ name: `c${i}`, image: 'nginx:1.25', resources: { limits: { cpu: extremeQuantity(r, true) } } });
const podSpec = (prefix: (string | number)[]): Setter[] => [
  ...resources([...prefix, 'containers', 0]), nameAt(...prefix, 'containers', 0, 'name'), listAt(container, ...prefix, 'containers'),
  quantityAt(...prefix, 'overhead', 'cpu'), quantityAt(...prefix, 'volumes', 0, 'emptyDir', 'sizeLimit'),
  countAt(...prefix, 'terminationGracePeriodSeconds'), countAt(...prefix, 'containers', 0, 'ports', 0, 'containerPort'),
];

/** Where each kind reads numbers, names and lists. */
export const EXTREMES_BY_KIND: Readonly<Record<string, readonly Setter[]>> = {
  Pod: [...podSpec(['spec']), nameAt('metadata', 'name'), nameAt('metadata', 'generateName')],
  SidecarSet: [
    ...resources(['spec', 'containers', 0]), ...resources(['spec', 'initContainers', 0]), nameAt('spec', 'containers', 0, 'name'),
    listAt(container, 'spec', 'containers'), intOrStringAt('spec', 'updateStrategy', 'partition'), intOrStringAt('spec', 'updateStrategy', 'maxUnavailable'),
    nameAt('metadata', 'name'), listAt((i) => ({ name: `v${i}`, emptyDir: { sizeLimit: `${i}Mi` } }), 'spec', 'volumes'),
    (o, r) => setPath(o, ['spec', 'containers', 0, 'resourcesPolicy'], { targetContainersMode: pick(r, ['sum', 'max']), targetContainersNameRegex: pick(r, ['.*', '(a|b)*a(a|b){20}c', '^c[0-9]+$']), resourcesExpr: { limits: { cpu: 'cpu*50%', memory: 'max(memory*10%, 50Mi)' } } }),
  ],
  CloneSet: [
    countAt('spec', 'replicas'), intOrStringAt('spec', 'updateStrategy', 'partition'), intOrStringAt('spec', 'updateStrategy', 'maxUnavailable'),
    intOrStringAt('spec', 'updateStrategy', 'maxSurge'), intOrStringAt('spec', 'scaleStrategy', 'maxUnavailable'), countAt('spec', 'revisionHistoryLimit'),
    countAt('spec', 'minReadySeconds'), countAt('spec', 'updateStrategy', 'inPlaceUpdateStrategy', 'gracePeriodSeconds'),
    listAt((i) => `web-${i}`, 'spec', 'scaleStrategy', 'podsToDelete'), nameAt('metadata', 'name'),
    ...podSpec(['spec', 'template', 'spec']),
    listAt((i, r) => ({ metadata: { name: `data-${i}` }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: extremeQuantity(r, true) } } } }), 'spec', 'volumeClaimTemplates'),
  ],
  ImagePullJob: [
    intOrStringAt('spec', 'parallelism'), countAt('spec', 'completionPolicy', 'activeDeadlineSeconds'), countAt('spec', 'completionPolicy', 'ttlSecondsAfterFinished'),
    countAt('spec', 'pullPolicy', 'timeoutSeconds'), countAt('spec', 'pullPolicy', 'backoffLimit'), listAt((i) => `secret-${i}`, 'spec', 'pullSecrets'),
    listAt((i) => `node-${i}`, 'spec', 'selector', 'names'), nameAt('spec', 'image'), nameAt('metadata', 'name'),
  ],
  ImageListPullJob: [
    intOrStringAt('spec', 'parallelism'), listAt((i) => `nginx:${i}`, 'spec', 'images'), listAt((i) => `secret-${i}`, 'spec', 'pullSecrets'),
    countAt('spec', 'completionPolicy', 'activeDeadlineSeconds'), countAt('spec', 'pullPolicy', 'backoffLimit'), nameAt('metadata', 'name'),
  ],
  NodeImage: [
    (o, r, t) => setPath(o, ['spec', 'images'], Object.fromEntries(longList(r, (i) => [`image-${i}`, { tags: [{ tag: 'v1', pullPolicy: { ttlSecondsAfterFinished: extremeCount(r, t) } }] }]))),
    (o, r, t) => setPath(o, ['spec', 'images', 'nginx', 'tags'], longList(r, (i) => ({ tag: `t${i}`, pullPolicy: { timeoutSeconds: extremeCount(r, t), backoffLimit: extremeCount(r, t) } }))),
    countAt('spec', 'images', 'nginx', 'tags', 0, 'pullPolicy', 'activeDeadlineSeconds'), nameAt('metadata', 'name'),
  ],
  ContainerRecreateRequest: [
    listAt((i) => ({ name: `c${i}` }), 'spec', 'containers'), countAt('spec', 'strategy', 'minStartedSeconds'), countAt('spec', 'strategy', 'terminationGracePeriodSeconds'),
    countAt('spec', 'ttlSecondsAfterFinished'), countAt('spec', 'activeDeadlineSeconds'), nameAt('spec', 'podName'), nameAt('spec', 'containers', 0, 'name'),
  ],
  PodUnavailableBudget: [
    intOrStringAt('spec', 'maxUnavailable'), intOrStringAt('spec', 'minAvailable'), nameAt('metadata', 'name'),
    (o, r) => setPath(o, ['status', 'disruptedPods'], Object.fromEntries(longList(r, (i) => [`web-${i}`, '2025-06-01T11:59:59Z']))),
    (o, r) => setPath(o, ['metadata', 'annotations'], { 'pub.kruise.io/protect-total-replicas': String(extremeCount(r, 'raw')), 'kruise.io/pub-protect-operations': longList(r, () => 'DELETE').join(',') }),
    listAt((i) => ({ key: `k${i}`, operator: 'In', values: ['v'] }), 'spec', 'selector', 'matchExpressions'),
  ],
  ResourceDistribution: [
    listAt((i) => ({ name: `ns-${i}` }), 'spec', 'targets', 'includedNamespaces', 'list'), listAt((i) => ({ name: `ns-${i}` }), 'spec', 'targets', 'excludedNamespaces', 'list'),
    nameAt('metadata', 'name'), nameAt('spec', 'resource', 'metadata', 'name'),
  ],
};

/** Sets one to three extremes on `object` of `kind` (in place). */
export function applyExtremes(kind: string, object: unknown, r: Random, typing: Typing = 'raw'): void {
  const setters = EXTREMES_BY_KIND[kind];
  if (!setters || typeof object !== 'object' || object === null) return;
  for (let n = 1 + Math.floor(r() * 3); n > 0; n--) pick(r, setters)(object as Json, r, typing);
}
