// The SidecarSet annotations of a pod, parsed once per pod object. Cached pods are replaced, never modified, on
// update, so a WeakMap keyed by the object is a safe memo; a reconcile over 10,000 pods parses each value once.
//
// The parts of a view are shared between pods that carry the same content (interned, read-only): the pods of one
// SidecarSet mostly have the same hash entries, injected list and container images, and what differs per pod (update
// timestamps) is not kept. A view then costs a few pointers per pod instead of a handful of Maps and strings.
import type { Pod } from '../../shared/api/meta.js';
import {
  SidecarSetHashAnnotation,
  SidecarSetHashWithoutImageAnnotation,
  SidecarSetInPlaceUpdateStateAnnotation,
  SidecarSetListAnnotation,
  SidecarSetWorkingHotUpgradeContainer,
} from '../../shared/api/sidecarset.js';
import { parseStringMap, parseUpgradeSpecMap } from '../../shared/domain/inject/annotations.js';
import { parseInPlaceStates, type InPlaceUpdateState } from './inplace-state.js';

/** What the controller reads of a `kruise.io/sidecarset-hash(-without-image)` entry. */
export interface HashEntry { readonly hash: string; readonly controllerRevision?: string }

export interface PodView {
  /** `kruise.io/sidecarset-hash` by SidecarSet name; an unparseable value reads as empty, as upstream's getters do. */
  hash: ReadonlyMap<string, HashEntry>;
  hashWithoutImage: ReadonlyMap<string, HashEntry>;
  /** `kruise.io/sidecarset-injected-list`, split on commas. */
  injected: ReadonlySet<string>;
  /** `kruise.io/sidecarset-working-hotupgrade-container`: sidecar name → working slot. */
  working: Readonly<Record<string, string>>;
  /** `kruise.io/sidecarset-inplace-update-state`: per SidecarSet, the image IDs recorded before the update. */
  inPlace: ReadonlyMap<string, Pick<InPlaceUpdateState, 'lastContainerStatuses'>> | 'invalid' | undefined;
  /** Spec image by container name (containers and init containers). */
  specImages: ReadonlyMap<string, string>;
}

const memo = new WeakMap<Pod, PodView>();

/** One shared value per distinct key; the table starts over when it grows past `max` (views keep what they hold). */
function internTable<T>(max = 4096): (key: string, make: () => T) => T {
  const table = new Map<string, T>();
  return (key, make) => {
    let v = table.get(key);
    if (v !== undefined) return v;
    if (table.size >= max) table.clear();
    table.set(key, (v = make()));
    return v;
  };
}

const SEP = '\u0000';
const hashes = internTable<ReadonlyMap<string, HashEntry>>();
const injectedLists = internTable<ReadonlySet<string>>();
const workingMaps = internTable<Readonly<Record<string, string>>>();
const inPlaceStates = internTable<ReadonlyMap<string, Pick<InPlaceUpdateState, 'lastContainerStatuses'>>>();
const images = internTable<ReadonlyMap<string, string>>();

function hashView(raw: string | undefined, key: string): ReadonlyMap<string, HashEntry> {
  let parsed;
  try {
    parsed = parseUpgradeSpecMap(raw, key, '');
  } catch {
    parsed = new Map();
  }
  const entries = [...parsed].map(([set, e]) => [set, e.hash, e.controllerRevision ?? ''] as const);
  return hashes(entries.flat().join(SEP), () =>
    new Map(entries.map(([set, hash, rev]) => [set, rev ? { hash, controllerRevision: rev } : { hash }])));
}

function inPlaceView(raw: string | undefined): PodView['inPlace'] {
  const parsed = parseInPlaceStates(raw);
  if (!(parsed instanceof Map)) return parsed;
  const entries = [...parsed].map(([set, s]) => [set, Object.entries(s.lastContainerStatuses).map(([c, st]) => [c, st.imageID ?? ''] as const)] as const);
  return inPlaceStates(JSON.stringify(entries), () => new Map(entries.map(([set, statuses]) =>
    [set, { lastContainerStatuses: Object.fromEntries(statuses.map(([c, id]) => [c, id ? { imageID: id } : {}])) }])));
}

export function podView(pod: Pod): PodView {
  let v = memo.get(pod);
  if (v) return v;
  const a = pod.metadata?.annotations ?? {};
  const list = a[SidecarSetListAnnotation] ?? '';
  const working = a[SidecarSetWorkingHotUpgradeContainer] ?? '';
  // Init containers too: native sidecars are updated in place (native-sidecars.ts); names are unique across both.
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].map((c) => [c.name, c.image ?? ''] as const);
  v = {
    hash: hashView(a[SidecarSetHashAnnotation], SidecarSetHashAnnotation),
    hashWithoutImage: hashView(a[SidecarSetHashWithoutImageAnnotation], SidecarSetHashWithoutImageAnnotation),
    injected: injectedLists(list, () => new Set(list ? list.split(',') : [])),
    working: workingMaps(working, () => parseStringMap(working || undefined)),
    inPlace: inPlaceView(a[SidecarSetInPlaceUpdateStateAnnotation]),
    specImages: images(containers.flat().join(SEP), () => new Map(containers)),
  };
  memo.set(pod, v);
  return v;
}
