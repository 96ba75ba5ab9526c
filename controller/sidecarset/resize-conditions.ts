// SidecarSet conditions (a kruise-ts extension, docs/compatibility.md, kept in the annotation
// kruise-ts.io/sidecarset-conditions because OpenKruise's SidecarSetStatus has no room) that say what the controller will not
// do in place, so `kubectl describe sidecarset` shows it instead of a rollout that silently stops short:
// - InPlaceUpdate=False/NewPodsOnly: matched pods whose sidecar change goes beyond image and resources (env, command,
//   mounts…), or whose resize is off or refused; upstream's rule for them: only new pods get the change.
// - InPlaceResize=False/ResizeUnsupported|ResizeInfeasible|ResizeRefused: resizes the cluster, a node or the API
//   refused. Each condition is absent while there is nothing to say. Pure; the reconcile writes and announces them.
import { SidecarSetConditionsAnnotation, type SidecarSet, type SidecarSetCondition } from '../../shared/api/sidecarset.js';
import { formatTimestamp } from '../../shared/domain/inject/annotations.js';

export const InPlaceUpdateCondition = 'InPlaceUpdate';
export const InPlaceResizeCondition = 'InPlaceResize';

/** Pods (and reasons) named in a message, at most; the count is always given. */
const NAMED = 3;
/** Longest reason quoted: API messages can be long and name the pod. */
const REASON_CHARS = 300;

const clip = (s: string) => (s.length > REASON_CHARS ? `${s.slice(0, REASON_CHARS)}…` : s);

export interface ConditionInputs {
  /** Pods behind the SidecarSet that only recreation updates, with why (pod-change.ts). */
  newPodsOnly: readonly { pod: string; reason: string }[];
  /** Why the cluster cannot resize at all, if so. */
  unsupported?: string;
  /** Pods whose resize kubelet reports Infeasible. */
  infeasible: readonly { pod: string; message: string }[];
  /** Pods whose resize the API refused. */
  refused: readonly { pod: string; message: string }[];
}

function pods(list: readonly { pod: string }[]): string {
  const names = list.slice(0, NAMED).map((x) => x.pod).join(', ');
  return list.length > NAMED ? `${names} and ${list.length - NAMED} more` : names;
}

/**
 * "reason (pods); other reason (pods)", reasons in order of first appearance, the first NAMED of them: the message
 * stays bounded whatever the number of pods (API refusals name their pod, so each can be a reason of its own).
 */
function grouped(list: readonly { pod: string; reason: string }[]): string {
  const by = new Map<string, { pod: string }[]>();
  for (const x of list) {
    const g = by.get(x.reason) ?? [];
    g.push(x);
    by.set(x.reason, g);
  }
  const shown = [...by].slice(0, NAMED).map(([reason, g]) => `${clip(reason)} (${pods(g)})`).join('; ');
  return by.size > NAMED ? `${shown}; ${by.size - NAMED} more reason(s)` : shown;
}

function resizeCondition(i: ConditionInputs): Omit<SidecarSetCondition, 'lastTransitionTime'> | undefined {
  if (i.unsupported) return { type: InPlaceResizeCondition, status: 'False', reason: 'ResizeUnsupported', message: clip(i.unsupported) };
  if (i.infeasible.length > 0) {
    return { type: InPlaceResizeCondition, status: 'False', reason: 'ResizeInfeasible',
      message: `${i.infeasible.length} pod(s) cannot get the new sidecar resources on their node, the rollout waits for them: ${clip(i.infeasible[0]!.message)} (${pods(i.infeasible)})` };
  }
  if (i.refused.length > 0) {
    return { type: InPlaceResizeCondition, status: 'False', reason: 'ResizeRefused',
      message: `the API refused the resize of ${i.refused.length} pod(s), which keep their sidecar resources until recreated: ${clip(i.refused[0]!.message)} (${pods(i.refused)})` };
  }
  return undefined;
}

/**
 * The conditions for `inputs`, keeping each one's lastTransitionTime from `previous` while its status is unchanged.
 * Conditions of other types in `previous` are kept as they are.
 */
export function resizeConditions(inputs: ConditionInputs, previous: readonly SidecarSetCondition[] | undefined, now: Date): SidecarSetCondition[] {
  const ours = new Set([InPlaceUpdateCondition, InPlaceResizeCondition]);
  const out = (previous ?? []).filter((c) => !ours.has(c.type));
  const next: Omit<SidecarSetCondition, 'lastTransitionTime'>[] = [];
  if (inputs.newPodsOnly.length > 0) {
    next.push({ type: InPlaceUpdateCondition, status: 'False', reason: 'NewPodsOnly',
      message: `${inputs.newPodsOnly.length} pod(s) keep their sidecars until recreated: ${grouped(inputs.newPodsOnly)}` });
  }
  const resize = resizeCondition(inputs);
  if (resize) next.push(resize);
  for (const c of next) {
    const old = previous?.find((p) => p.type === c.type);
    out.push({ ...c, lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : formatTimestamp(now) });
  }
  return out;
}

/**
 * The conditions of `next` that appeared or changed status or reason since `previous`: worth an event. A message that
 * only counts pods differently is not (the pods' own events say which).
 */
export function changedConditions(previous: readonly SidecarSetCondition[] | undefined, next: readonly SidecarSetCondition[]): SidecarSetCondition[] {
  return next.filter((c) => {
    const old = previous?.find((p) => p.type === c.type);
    return !old || old.status !== c.status || old.reason !== c.reason;
  });
}

/** Whether the condition lists differ in anything but lastTransitionTime (what a status write must carry). */
export function conditionsDiffer(previous: readonly SidecarSetCondition[] | undefined, next: readonly SidecarSetCondition[]): boolean {
  const key = (cs: readonly SidecarSetCondition[] | undefined) => JSON.stringify((cs ?? []).map((c) => [c.type, c.status, c.reason, c.message]));
  return key(previous) !== key(next);
}

/** The conditions the annotation holds; anything unreadable (hand-edited) counts as none, and is rewritten. */
export function readConditions(set: SidecarSet): SidecarSetCondition[] {
  const text = set.metadata?.annotations?.[SidecarSetConditionsAnnotation];
  if (!text) return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((c): c is SidecarSetCondition => typeof c?.type === 'string' && typeof c?.status === 'string') : [];
  } catch {
    return [];
  }
}

/** The merge patch that stores `conditions` (none: the annotation is removed). */
export const conditionsPatch = (conditions: readonly SidecarSetCondition[]) =>
  ({ metadata: { annotations: { [SidecarSetConditionsAnnotation]: conditions.length > 0 ? JSON.stringify(conditions) : null } } });
