// Texts the probes report, shaped as the Go daemon prints them (spec §6.4): durations, network errors, and the
// 1024-character cut of every message.

/** time.Duration.String() of whole seconds: `1s`, `1m30s`, `1h0m5s`. */
export function goSeconds(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}

const SYSCALL_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connect: connection refused',
  EHOSTUNREACH: 'connect: no route to host',
  ENETUNREACH: 'connect: network is unreachable',
  ECONNRESET: 'read: connection reset by peer',
  EADDRNOTAVAIL: 'connect: cannot assign requested address',
};

/** A Node socket error as Go's dial error reads: `dial tcp 10.0.0.5:8000: connect: connection refused`. */
export function dialErrorText(address: string, err: unknown): string {
  const code = (err as { code?: string })?.code ?? '';
  const text = SYSCALL_TEXT[code] ?? (err instanceof Error ? err.message : String(err));
  return `dial tcp ${address}: ${text}`;
}

export const MAX_PROBE_MESSAGE = 1024;

/**
 * Upstream counts characters but cuts bytes (§11.9): a message of more than 1024 characters keeps its first 1024
 * bytes. Same condition and length here, but the cut backs off to a character boundary instead of leaving half a
 * UTF-8 sequence (which Go's JSON encoder turns into U+FFFD).
 */
export function truncateMessage(msg: string): string {
  if ([...msg].length <= MAX_PROBE_MESSAGE) return msg;
  const bytes = Buffer.from(msg, 'utf8');
  let end = MAX_PROBE_MESSAGE;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}
