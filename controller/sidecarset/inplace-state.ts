// `kruise.io/sidecarset-inplace-update-state` (spec/daemon-and-controllers.md §6.2, §6.6): per SidecarSet, the image
// IDs its sidecar containers had before the controller changed their images. A status imageID still equal to the
// recorded one means kubelet has not restarted the container with the new image yet.
import { goString } from '../../shared/domain/go-json.js';
import { byteOrder, formatTimestamp } from '../../shared/domain/inject/annotations.js';

/** pub.InPlaceUpdateState, the fields a SidecarSet entry uses, in Go declaration order. */
export interface InPlaceUpdateState {
  revision: string;
  /** RFC 3339 UTC seconds, null for Go's zero time. */
  updateTimestamp: string | null;
  lastContainerStatuses: Record<string, { imageID?: string }>;
}

export type InPlaceUpdateStates = Map<string, InPlaceUpdateState>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown): v is string | null | undefined => v === undefined || v === null || typeof v === 'string';

function decodeState(v: unknown): InPlaceUpdateState | undefined {
  if (v === null) return { revision: '', updateTimestamp: null, lastContainerStatuses: {} };
  if (!isObject(v)) return undefined;
  const { revision, updateTimestamp, lastContainerStatuses } = v;
  if (!optString(revision) || !optString(updateTimestamp)) return undefined;
  if (!(lastContainerStatuses === undefined || lastContainerStatuses === null || isObject(lastContainerStatuses))) return undefined;
  const statuses: InPlaceUpdateState['lastContainerStatuses'] = {};
  for (const [name, s] of Object.entries(lastContainerStatuses ?? {})) {
    if (s === null) { statuses[name] = {}; continue; }
    if (!isObject(s) || !optString(s.imageID)) return undefined;
    statuses[name] = s.imageID ? { imageID: s.imageID } : {};
  }
  const ts = typeof updateTimestamp === 'string' && !Number.isNaN(Date.parse(updateTimestamp)) ? formatTimestamp(new Date(updateTimestamp)) : null;
  return { revision: revision ?? '', updateTimestamp: ts, lastContainerStatuses: statuses };
}

/** The parsed annotation; undefined when absent, 'invalid' when Go's json.Unmarshal would fail. */
export function parseInPlaceStates(raw: string | undefined): InPlaceUpdateStates | 'invalid' | undefined {
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return 'invalid';
  }
  const out: InPlaceUpdateStates = new Map();
  if (parsed === null) return out;
  if (!isObject(parsed)) return 'invalid';
  for (const [name, v] of Object.entries(parsed)) {
    const s = decodeState(v);
    if (!s) return 'invalid';
    out.set(name, s);
  }
  return out;
}

/** Go-JSON of the map: names sorted, `lastContainerStatuses` always present, empty imageIDs omitted. */
export function formatInPlaceStates(states: InPlaceUpdateStates): string {
  const entry = (s: InPlaceUpdateState) => {
    const statuses = Object.keys(s.lastContainerStatuses).sort(byteOrder)
      .map((c) => `${goString(c)}:${s.lastContainerStatuses[c]!.imageID ? `{"imageID":${goString(s.lastContainerStatuses[c]!.imageID!)}}` : '{}'}`);
    const ts = s.updateTimestamp === null ? 'null' : goString(s.updateTimestamp);
    return `{"revision":${goString(s.revision)},"updateTimestamp":${ts},"lastContainerStatuses":{${statuses.join(',')}}}`;
  };
  return `{${[...states.keys()].sort(byteOrder).map((k) => `${goString(k)}:${entry(states.get(k)!)}`).join(',')}}`;
}

/**
 * UpdatePodAnnotationsInUpgrade: the annotation value after the controller changed `changed` containers of the pod
 * for SidecarSet `setName` at `revision` (its hash). The entry is created with `revision`/`now` when absent and then
 * kept; each changed container records its current (pre-update) status imageID. Unparseable input starts afresh.
 */
export function recordInPlaceUpdate(
  raw: string | undefined,
  setName: string,
  revision: string,
  changed: readonly string[],
  imageIDs: ReadonlyMap<string, string>,
  now: Date,
): string {
  const parsed = parseInPlaceStates(raw);
  const states: InPlaceUpdateStates = parsed instanceof Map ? parsed : new Map();
  const state = states.get(setName) ?? { revision, updateTimestamp: formatTimestamp(now), lastContainerStatuses: {} };
  const statuses = { ...state.lastContainerStatuses };
  for (const c of changed) statuses[c] = imageIDs.get(c) ? { imageID: imageIDs.get(c)! } : {};
  states.set(setName, { ...state, lastContainerStatuses: statuses });
  return formatInPlaceStates(states);
}
