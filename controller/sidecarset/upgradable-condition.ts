// Pod condition `SidecarSetUpgradable` (spec/daemon-and-controllers.md §6.5 step 1, §6.6): its message is a JSON map
// SidecarSet name → upgradable; the condition is True only while every SidecarSet in it can upgrade the pod in place.
import type { Pod } from '../../shared/api/meta.js';
import { formatTimestamp } from '../../shared/domain/inject/annotations.js';

export const SidecarSetUpgradableCondition = 'SidecarSetUpgradable';

interface Condition {
  type: string;
  status: string;
  lastProbeTime?: unknown;
  lastTransitionTime?: unknown;
  reason?: string;
  message?: string;
}

function messageKv(message: string | undefined): Record<string, boolean> {
  if (!message) return {};
  try {
    const v: unknown = JSON.parse(message);
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'boolean')) return { ...(v as Record<string, boolean>) };
  } catch {
    // Upstream fails the reconcile on a foreign message; we start the map afresh (docs/compatibility.md).
  }
  return {};
}

const time = (t: unknown) => (t ? new Date(t as string).getTime() : 0);

/**
 * The strategic-merge status patch that records `upgradable` for SidecarSet `setName` on the pod, or null when the
 * condition would not change (podutil.UpdatePodCondition: the transition time moves only when the status flips).
 */
export function upgradableConditionPatch(pod: Pod, setName: string, upgradable: boolean, now: Date): { status: { conditions: Condition[] } } | null {
  const old = pod.status?.conditions?.find((c) => c.type === SidecarSetUpgradableCondition) as Condition | undefined;
  const kv = messageKv(old?.message);
  kv[setName] = upgradable;
  const all = Object.values(kv).every(Boolean);
  const message = `{${Object.keys(kv).sort().map((k) => `${JSON.stringify(k)}:${kv[k]}`).join(',')}}`;
  const status = all ? 'True' : 'False';
  const reason = all ? 'AllSidecarsetUpgradable' : 'UpdateImmutableField';
  const lastTransitionTime = old && old.status === status ? old.lastTransitionTime : formatTimestamp(now);
  if (old && old.status === status && old.reason === reason && old.message === message && time(old.lastProbeTime) === 0) return null;
  return {
    status: {
      conditions: [{ type: SidecarSetUpgradableCondition, status, lastProbeTime: null, lastTransitionTime: lastTransitionTime ?? null, reason, message }],
    },
  };
}
