// Which admission operations a PodUnavailableBudget guards, and how a pod UPDATE is classified (spec §3.3, §3.4):
// an "unavailable change" (spec changed, or an `unavailable-pod.kruise.io/` label gained) is checked, as RESIZE when
// only container cpu/memory changed in a way kubelet applies without a restart, else as UPDATE.
import { isDeepStrictEqual } from 'node:util';
import type { Container, Pod } from '../../api/meta.js';
import {
  PubProtectOperationAnnotation, PubUnavailablePodLabelPrefix, type PodUnavailableBudget, type PubOperation,
} from '../../api/pod-unavailable-budget.js';
import { compareQuantityValues, parseQuantityValue } from '../quantity.js';

/**
 * isNeedPubProtection: the annotation's items (absent or "" → DELETE, UPDATE, EVICT); with the Kruise gate
 * InPlacePodVerticalScaling off, UPDATE implies RESIZE.
 */
export function isPubProtected(pub: PodUnavailableBudget, op: PubOperation, inPlacePodVerticalScaling: boolean): boolean {
  const raw = pub.metadata?.annotations?.[PubProtectOperationAnnotation];
  const ops = new Set<string>(raw ? raw.split(',') : ['DELETE', 'UPDATE', 'EVICT']);
  if (!inPlacePodVerticalScaling && ops.has('UPDATE')) ops.add('RESIZE');
  return ops.has(op);
}

const unavailableLabels = (pod: Pod) => Object.keys(pod.metadata?.labels ?? {}).filter((k) => k.startsWith(PubUnavailablePodLabelPrefix));

/** The new pod carries an `unavailable-pod.kruise.io/` label the old one lacked. */
export function gainsUnavailableLabel(oldPod: Pod, newPod: Pod): boolean {
  const had = new Set(unavailableLabels(oldPod));
  return unavailableLabels(newPod).some((k) => !had.has(k));
}

/** An UPDATE PUB checks: spec changed, or an unavailable label gained. Metadata- and status-only changes are not. */
export const isUnavailableChange = (oldPod: Pod, newPod: Pod): boolean =>
  !isDeepStrictEqual(oldPod.spec ?? null, newPod.spec ?? null) || gainsUnavailableLabel(oldPod, newPod);

type Resources = Record<string, string | number>;
const COMPUTE = ['cpu', 'memory'] as const;

function qtyEqual(a: string | number | undefined, b: string | number | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  try { return compareQuantityValues(parseQuantityValue(a), parseQuantityValue(b)) === 0; } catch { return a === b; }
}

/** Kubernetes' pod QoS class from the cpu/memory requests and limits of every (init) container. */
export function qosClass(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of all) {
    const req = (c.resources?.requests ?? {}) as Resources;
    const lim = (c.resources?.limits ?? {}) as Resources;
    for (const r of COMPUTE) {
      const zero = (v: string | number | undefined) => v === undefined || qtyEqual(v, 0);
      if (!zero(req[r]) || !zero(lim[r])) any = true;
      if (zero(lim[r]) || (req[r] !== undefined && !qtyEqual(req[r], lim[r]))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

const isStaticPod = (pod: Pod) => { const s = pod.metadata?.annotations?.['kubernetes.io/config.source']; return s !== undefined && s !== 'api'; };

const withoutContainerResources = (pod: Pod) =>
  ({ ...pod.spec, containers: (pod.spec?.containers ?? []).map((c) => ({ ...c, resources: undefined })) });

function resizableChange(oldC: Container, newC: Container): boolean {
  for (const part of ['requests', 'limits'] as const) {
    const o = (oldC.resources?.[part] ?? {}) as Resources;
    const n = (newC.resources?.[part] ?? {}) as Resources;
    for (const name of new Set([...Object.keys(o), ...Object.keys(n)])) {
      if (qtyEqual(o[name], n[name])) continue;
      if (name !== 'cpu' && name !== 'memory') return false;
      const policy = (newC.resizePolicy ?? []).find((p) => p.resourceName === name)?.restartPolicy;
      if (policy !== undefined && policy !== '' && policy !== 'NotRequired') return false;
    }
  }
  return true;
}

/** CanResizeInplace (spec §3.4): only container cpu/memory changed, same QoS, no restart asked, not a static pod. */
export function canResizeInPlace(oldPod: Pod, newPod: Pod): boolean {
  if (gainsUnavailableLabel(oldPod, newPod)) return false;
  if (!isDeepStrictEqual(withoutContainerResources(oldPod), withoutContainerResources(newPod))) return false;
  if (isStaticPod(oldPod) || isStaticPod(newPod)) return false;
  if (qosClass(oldPod) !== qosClass(newPod)) return false;
  const oldCs = oldPod.spec?.containers ?? [];
  const newCs = newPod.spec?.containers ?? [];
  if (oldCs.length !== newCs.length) return false;
  const byName = new Map(oldCs.map((c) => [c.name, c]));
  return newCs.every((c) => { const o = byName.get(c.name); return o !== undefined && resizableChange(o, c); });
}
