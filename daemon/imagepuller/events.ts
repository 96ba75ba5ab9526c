// The events the puller emits (spec/daemon-and-controllers.md §2.4), with upstream's exact reasons and wording.
import type { V1ObjectReference } from '@kubernetes/client-node';

export const REASON_PULL_SUCCEEDED = 'PullImageSucceed';
export const REASON_PULL_FAILED = 'PullImageFailed';

export interface PullEvent {
  involvedObject: V1ObjectReference;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

const units: Array<[number, string]> = [[3_600_000, 'h'], [60_000, 'm']];

/** Go's time.Duration.String() for a millisecond count (`150ms`, `3.512s`, `1m2.5s`, `1h0m0s`). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${trim(rest.toFixed(3))}ms`;
  let out = '';
  for (const [size, unit] of units) {
    if (out || rest >= size) {
      out += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return `${sign}${out}${trim((rest / 1000).toFixed(9))}s`;
}

const trim = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

export const succeededMessage = (name: string, tag: string, elapsedMs: number): string =>
  `Image ${name}:${tag}, ecalpsedTime ${goDuration(elapsedMs)}`;

export const failedMessage = (name: string, tag: string, error: string): string => `Image ${name}:${tag} ${error}`;
