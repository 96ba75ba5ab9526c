// kube controller.ActivePods ordering, the first key of the SidecarSet update order (spec/daemon-and-controllers.md
// §6.5 step 2): the pods whose disruption costs least come first.
import type { Pod } from '../../shared/api/meta.js';
import { isPodReadyCondition } from './pod-state.js';

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

const time = (t: unknown): number => (t ? new Date(t as string | Date).getTime() : 0);
const readyTime = (pod: Pod) => time(pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime);
const maxRestarts = (pod: Pod) => Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));

/** afterOrZero: a zero time sorts first, else the later one. */
function afterOrZero(a: number, b: number): boolean {
  if (a === 0 || b === 0) return a === 0;
  return a > b;
}

/**
 * Negative when `a` goes before `b`: unscheduled < scheduled; Pending < Unknown < Running; not ready < ready; ready
 * for less time < longer; more restarts < fewer; newer < older (zero creation time first).
 */
export function compareActivePods(a: Pod, b: Pod): number {
  const less = (x: Pod, y: Pod): boolean => {
    const nx = x.spec?.nodeName ?? '';
    const ny = y.spec?.nodeName ?? '';
    if (nx !== ny && (nx === '' || ny === '')) return nx === '';
    const px = PHASE_ORDINAL[x.status?.phase ?? ''] ?? 0;
    const py = PHASE_ORDINAL[y.status?.phase ?? ''] ?? 0;
    if (px !== py) return px < py;
    const rx = isPodReadyCondition(x);
    const ry = isPodReadyCondition(y);
    if (rx !== ry) return !rx;
    if (rx && ry) {
      const tx = readyTime(x);
      const ty = readyTime(y);
      if (tx !== ty) return afterOrZero(tx, ty);
    }
    const cx = maxRestarts(x);
    const cy = maxRestarts(y);
    if (cx !== cy) return cx > cy;
    const kx = time(x.metadata?.creationTimestamp);
    const ky = time(y.metadata?.creationTimestamp);
    if (kx !== ky) return afterOrZero(kx, ky);
    return false;
  };
  if (less(a, b)) return -1;
  return less(b, a) ? 1 : 0;
}
