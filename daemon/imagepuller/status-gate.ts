// When the puller may write its status (spec/daemon-and-controllers.md §2.4 step 4): skip an unchanged status
// unless 12 h + rand(0–60 min) passed since the last write, and rate-limit writes to 0.5 QPS with a burst of 5.
import type { NodeImageStatus } from '../../shared/api/node-image.js';

export const STATUS_QPS = 0.5;
export const STATUS_BURST = 5;
const FORCED_REFRESH_MS = 12 * 3_600_000;
const FORCED_REFRESH_JITTER_MS = 60 * 60_000;

export type WriteDecision = 'write' | 'unchanged' | 'limited';

export class StatusWriteGate {
  private tokens = STATUS_BURST;
  private refilledAt: number | undefined;
  private lastJson: string | undefined;
  private refreshAt = 0;

  constructor(private readonly nowMs: () => number, private readonly random: () => number) {}

  decide(status: NodeImageStatus): WriteDecision {
    const now = this.nowMs();
    if (JSON.stringify(status) === this.lastJson && now < this.refreshAt) return 'unchanged';
    this.tokens = Math.min(STATUS_BURST, this.tokens + ((now - (this.refilledAt ?? now)) / 1000) * STATUS_QPS);
    this.refilledAt = now;
    if (this.tokens < 1) return 'limited';
    this.tokens -= 1;
    return 'write';
  }

  written(status: NodeImageStatus): void {
    this.lastJson = JSON.stringify(status);
    this.refreshAt = this.nowMs() + FORCED_REFRESH_MS + Math.floor(this.random() * FORCED_REFRESH_JITTER_MS);
  }
}
