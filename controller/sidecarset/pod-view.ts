// The SidecarSet annotations of a pod, parsed once per pod object. Cached pods are replaced, never modified, on
// update, so a WeakMap keyed by the object is a safe memo; a reconcile over 10,000 pods parses each value once.
import type { Pod } from '../../shared/api/meta.js';
import {
  SidecarSetHashAnnotation,
  SidecarSetHashWithoutImageAnnotation,
  SidecarSetInPlaceUpdateStateAnnotation,
  SidecarSetListAnnotation,
  SidecarSetWorkingHotUpgradeContainer,
} from '../../shared/api/sidecarset.js';
import { parseStringMap, parseUpgradeSpecMap, type UpgradeSpecMap } from '../../shared/domain/inject/annotations.js';
import { parseInPlaceStates, type InPlaceUpdateStates } from './inplace-state.js';

export interface PodView {
  /** `kruise.io/sidecarset-hash`; an unparseable value reads as empty, as upstream's getters do. */
  hash: UpgradeSpecMap;
  hashWithoutImage: UpgradeSpecMap;
  /** `kruise.io/sidecarset-injected-list`, split on commas. */
  injected: ReadonlySet<string>;
  /** `kruise.io/sidecarset-working-hotupgrade-container`: sidecar name → working slot. */
  working: Readonly<Record<string, string>>;
  inPlace: InPlaceUpdateStates | 'invalid' | undefined;
  /** Spec image by container name. */
  specImages: ReadonlyMap<string, string>;
}

const memo = new WeakMap<Pod, PodView>();

function lenientSpecMap(raw: string | undefined, key: string): UpgradeSpecMap {
  try {
    return parseUpgradeSpecMap(raw, key, '');
  } catch {
    return new Map();
  }
}

export function podView(pod: Pod): PodView {
  let v = memo.get(pod);
  if (v) return v;
  const a = pod.metadata?.annotations ?? {};
  const list = a[SidecarSetListAnnotation];
  v = {
    hash: lenientSpecMap(a[SidecarSetHashAnnotation], SidecarSetHashAnnotation),
    hashWithoutImage: lenientSpecMap(a[SidecarSetHashWithoutImageAnnotation], SidecarSetHashWithoutImageAnnotation),
    injected: new Set(list ? list.split(',') : []),
    working: parseStringMap(a[SidecarSetWorkingHotUpgradeContainer]),
    inPlace: parseInPlaceStates(a[SidecarSetInPlaceUpdateStateAnnotation]),
    specImages: new Map((pod.spec?.containers ?? []).map((c) => [c.name, c.image ?? ''])),
  };
  memo.set(pod, v);
  return v;
}
