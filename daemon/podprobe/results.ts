// The result cache between the probe workers and the status sync (spec §6.5). A publication is stored, and the
// status sync asked for, only when it says something new: first result, another state, another message, or the
// stored one is ≥ 600 s old (so lastProbeTime moves at least every 10 minutes).
//
// Kruise deviation (§11.6, docs/compatibility.md): upstream keys the cache by container id, so two probes on one
// container overwrite each other's entry; here each probe has its own entry.
import type { ProbeState } from '../../shared/api/node-pod-probe.js';
import type { Clock } from '../../shared/clock.js';

/** A worker's identity (upstream's probeKey): a new pod IP is a new worker. */
export interface ProbeKey {
  podNs: string;
  podName: string;
  podUid: string;
  podIP: string;
  containerName: string;
  /** `<ppm>#<probe>`. */
  probeName: string;
}

export const probeKeyString = (k: ProbeKey): string => JSON.stringify([k.podNs, k.podName, k.podUid, k.podIP, k.containerName, k.probeName]);

export interface ProbeResult {
  containerId: string;
  key: ProbeKey;
  state: ProbeState;
  message: string;
  /** Milliseconds since the epoch of the publication that was stored. */
  lastProbeTimeMs: number;
}

/** Upstream's maxSyncProbeTime. */
export const REFRESH_AFTER_MS = 600_000;

export class ProbeResults {
  private readonly byKey = new Map<string, ProbeResult>();
  /** Keys stored since the last takeFresh(): each gets one event (§11.7). */
  private readonly fresh = new Set<string>();

  constructor(private readonly deps: { clock: Pick<Clock, 'now'>; onStored: () => void }) {}

  /** Stores the publication if it is news (see above) and then asks for a status sync; returns whether it stored. */
  set(containerId: string, key: ProbeKey, state: ProbeState, message: string): boolean {
    const now = this.deps.clock.now();
    const id = probeKeyString(key);
    const prev = this.byKey.get(id);
    if (prev && prev.state === state && prev.message === message && now - prev.lastProbeTimeMs < REFRESH_AFTER_MS) return false;
    this.byKey.set(id, { containerId, key, state, message, lastProbeTimeMs: now });
    this.fresh.add(id);
    this.deps.onStored();
    return true;
  }

  get(key: ProbeKey): ProbeResult | undefined {
    return this.byKey.get(probeKeyString(key));
  }

  /** Drops the probe's result (its worker stopped). */
  remove(key: ProbeKey): void {
    const id = probeKeyString(key);
    this.byKey.delete(id);
    this.fresh.delete(id);
  }

  list(): ProbeResult[] {
    return [...this.byKey.values()];
  }

  /** The keys stored since the previous call, emptied. */
  takeFresh(): Set<string> {
    const out = new Set(this.fresh);
    this.fresh.clear();
    return out;
  }

  get size(): number {
    return this.byKey.size;
  }
}
