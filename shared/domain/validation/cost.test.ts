// Validation work is linear in the request (cost audit after review C1): no scan of one list per item of another.
// Measured as reads of the scanned data through a counting Proxy, or, where the products were over copies the
// request never sees, as a time ratio within one run (best of several) against the size ratio.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import type { ContainerRecreateRequest } from '../../api/container-recreate-request.js';
import { mutateContainerRecreateRequest } from './container-recreate-request.js';
import { validateResourceDistribution } from './resource-distribution.js';
import { isSelectorOverlapping, validateSidecarSetConflicts } from './sidecarset-conflicts.js';

/** `value` behind Proxies counting every property read, at any depth. */
function counted<T extends object>(value: T): { value: T; reads: () => number } {
  let reads = 0;
  const proxies = new WeakMap<object, object>();
  const wrap = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (!proxies.has(v)) proxies.set(v, new Proxy(v, { get: (t, k, r) => (reads++, wrap(Reflect.get(t, k, r))) }));
    return proxies.get(v);
  };
  return { value: wrap(value) as T, reads: () => reads };
}

const volumeSet = (name: string, n: number): SidecarSet => ({
  metadata: { name },
  spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: `${name}-c`, image: 'x' }], volumes: Array.from({ length: n }, (_, i) => ({ name: `v${i}`, emptyDir: {} })) },
}) as SidecarSet;

test('volume conflicts: each volume of the object is compared once, not searched for in the other set', () => {
  const reads = (n: number) => {
    const other = counted(volumeSet('other', n));
    assert.deepEqual(validateSidecarSetConflicts(volumeSet('mine', n), [other.value], () => ({})), []);
    return other.reads() / n;
  };
  const small = reads(200);
  const large = reads(3_200);
  // Upstream's lookup by name scanned the other set's volumes per volume: reads per volume grew 16× here.
  assert.ok(large <= small * 1.5, `reads per volume grew from ${small} to ${large}`);
});

test('CRR: each requested container is looked up in the pod once, not by a scan of its containers', () => {
  const reads = (n: number) => {
    const names = Array.from({ length: n }, (_, i) => `c${i}`);
    const pod = counted({
      metadata: { name: 'p', namespace: 'default', uid: 'u' },
      spec: { nodeName: 'n1', containers: names.map((name) => ({ name, image: 'x' })) },
      status: { phase: 'Running', containerStatuses: names.map((name) => ({ name, containerID: `containerd://${name}`, restartCount: 0 })) },
    } as unknown as Pod);
    const crr = { metadata: { name: 'r', namespace: 'default' }, spec: { podName: 'p', containers: names.map((name) => ({ name })) } } as ContainerRecreateRequest;
    mutateContainerRecreateRequest(crr, undefined, { operation: 'CREATE', getPod: () => pod.value, getNode: () => ({ metadata: { name: 'n1' } }) });
    return pod.reads() / n;
  };
  const small = reads(100);
  const large = reads(1_600);
  assert.ok(large <= small * 1.5, `reads per container grew from ${small} to ${large}`);
});

test('ResourceDistribution: a list of bad namespace names is reported a few times, not once per name', () => {
  const list = Array.from({ length: 1_000 }, (_, i) => ({ name: `Bad_${i}` }));
  const vs = validateResourceDistribution(
    { metadata: { name: 'rd' }, spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }, targets: { includedNamespaces: { list } } } } as never,
    undefined,
  );
  assert.equal(vs.length, 11);
  assert.match(vs[10]!.detail, /^990 more problems with namespace names in this list$/);
});

test('selector overlap is linear in both selectors, also when one key repeats (time ratio within one run)', () => {
  const selector = (n: number) => ({ matchExpressions: Array.from({ length: n }, (_, i) => ({ key: 'app', operator: 'In', values: ['web', `v${i}`] })) });
  const other = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['x'] }] };
  const best = (fn: () => void) => {
    let min = Infinity;
    for (let i = 0; i < 9; i++) {
      const t = process.hrtime.bigint();
      fn();
      min = Math.min(min, Number(process.hrtime.bigint() - t));
    }
    return min;
  };
  const overlap = (n: number) => {
    const s = selector(n);
    return best(() => assert.equal(isSelectorOverlapping(s, other) && isSelectorOverlapping(other, s), true));
  };
  // The yardstick: work known to be linear over the same values (a Set of them), timed alike, so that what a larger
  // working set costs the machine (caches, GC) is in both ratios and only the algorithm's growth differs.
  const yardstick = (n: number) => {
    const s = selector(n);
    return best(() => assert.ok(new Set(s.matchExpressions.flatMap((e) => e.values)).size > n));
  };
  overlap(500);
  yardstick(500);
  const ratio = overlap(16_000) / overlap(1_000);
  const linear = yardstick(16_000) / yardstick(1_000);
  // 16× the terms; upstream's slice append copied the values gathered so far per term, 256× the work here.
  assert.ok(ratio < 3 * linear, `16× the terms took ${ratio.toFixed(1)}× the time, linear work ${linear.toFixed(1)}×`);
});

test('pod-spec validation reads each volume, mount, device and port a bounded number of times', async () => {
  const { validatePodSpecSubset } = await import('./pod-spec.js');
  const spec = (n: number) => ({
    volumes: Array.from({ length: n }, (_, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: `c${i}` } })),
    containers: [
      {
        name: 'app', image: 'x', imagePullPolicy: 'Always', terminationMessagePolicy: 'File',
        volumeMounts: Array.from({ length: n }, (_, i) => ({ name: `v${i}`, mountPath: `/m${i}` })),
        volumeDevices: Array.from({ length: n }, (_, i) => ({ name: `d${i}`, devicePath: `/d${i}` })),
        ports: Array.from({ length: n }, (_, i) => ({ containerPort: 1 + (i % 60000), hostPort: 1 + i, protocol: 'TCP' })),
        env: Array.from({ length: n }, (_, i) => ({ name: `E${i}`, value: 'v' })),
      },
    ],
  });
  const reads = (n: number) => {
    const s = counted(spec(n));
    validatePodSpecSubset(s.value as never);
    return s.reads() / n;
  };
  const small = reads(200);
  const large = reads(3_200);
  assert.ok(large <= small * 1.5, `reads per item grew from ${small} to ${large}`);
});

// Review N-C1: a quantity's exponent is Go's int32 and was expanded as 10n ** exponent (1e-100000000: 8.5 s). Every
// quantity path now costs time proportional to the input's length: parse, print, RoundUp(Milli), compare, "must be
// an integer", the resources-policy arithmetic and the CloneSet revision's goNormalize. Measured as time per input
// character against ordinary quantities timed alike in the same run (the old code hung here for minutes).
test('quantities with absurd exponents cost what ordinary ones cost per character (N-C1)', { timeout: 120_000 }, async () => {
  const { canonicalQuantity, compareQuantityValues, isWholeQuantity, parseQuantityValue, QuantityParseError } = await import('../quantity.js');
  const { add, cmp, milliValue, parseQuantity } = await import('../quantity-math.js');
  const { normalizedTemplate } = await import('../cloneset/revision.js');
  const zero = parseQuantityValue('0');
  const every = (s: string): void => {
    const guard = (fn: () => unknown) => {
      try { fn(); } catch (err) { if (!(err instanceof QuantityParseError)) throw err; }
    };
    guard(() => canonicalQuantity(s));
    guard(() => canonicalQuantity(s, { roundUpToMilli: true }));
    guard(() => {
      const v = parseQuantityValue(s);
      compareQuantityValues(v, zero);
      compareQuantityValues(v, parseQuantityValue('1'));
      isWholeQuantity(v);
    });
    guard(() => {
      const q = parseQuantity(s);
      milliValue(q);
      cmp(q, parseQuantity('1m'));
      add(q, parseQuantity('1m'));
    });
    guard(() => normalizedTemplate({ spec: { template: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: s } } }] } } } } as never));
  };
  const perChar = (s: string): number => {
    let min = Infinity;
    for (let i = 0; i < 5; i++) {
      const t = process.hrtime.bigint();
      for (let k = 0; k < 20; k++) every(s);
      min = Math.min(min, Number(process.hrtime.bigint() - t) / 20);
    }
    return min / Math.max(s.length, 16);
  };
  const ordinary = ['1', '500m', '1.5Gi', '1e3', '-1.5m', '123456789012345678901234567890', '0.000000001', '9Ei'];
  const powers = Array.from({ length: 10 }, (_, k) => 10 ** k);
  const absurd = [
    ...powers.flatMap((p) => [`1e${p}`, `1e-${p}`, `1.5e${p}`, `-7e-${p}`, `123456789012345678901e${p}`, `0e-${p}`]),
    '1e9999999999', '1e-9999999999', '1e2147483647', '1e-2147483648', '10e2147483647', '1.5e-2147483648', '1e4294967296',
    '1e99999999999999999999', '1ke30000000', '1Kie-30000000', '1e30000000Ki', '1E+30000000', '1.e-30000000', '.5e-100000000',
    `${'9'.repeat(1000)}e-100000000`, `${'9'.repeat(1000)}e100000000`, `0.${'0'.repeat(100_000)}1`, `1${'0'.repeat(100_000)}`,
    `1e-${'0'.repeat(100_000)}5`, '9'.repeat(100_000), ` ${' '.repeat(50_000)}1${' '.repeat(50_000)}x`,
  ];
  for (const s of [...ordinary, ...absurd]) every(s); // warm up
  const baseline = Math.max(...ordinary.map(perChar));
  const worst = absurd.map((s) => ({ s, ratio: perChar(s) / baseline })).sort((a, b) => b.ratio - a.ratio).slice(0, 3);
  console.log(`quantity work per character, worst absurd inputs against the costliest ordinary one: ${worst.map((w) => `${w.s.slice(0, 30)} ${w.ratio.toFixed(2)}×`).join(', ')}`);
  assert.ok(worst[0]!.ratio < 20, `${worst[0]!.s.slice(0, 40)}: ${worst[0]!.ratio.toFixed(1)}× the work per character of ordinary quantities`);
});
