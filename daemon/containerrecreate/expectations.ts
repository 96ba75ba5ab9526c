// resourceVersion expectations (kruise pkg/util/expectations): after the daemon writes a CRR it knows the new
// resourceVersion, and until the informer shows at least that version the cached copy is stale — acting on it would
// repeat the write or kill a container twice. Stale copies are skipped for up to 10 s, then trusted again.

/** Spec §4.4 step 1: after this long an unsatisfied expectation is dropped with a warning. */
export const MAX_EXPECTATION_WAIT_MS = 10_000;

interface Expected {
  resourceVersion: bigint;
  sinceMs: number;
}

const parseRv = (rv: string | undefined): bigint | undefined => {
  if (!rv || !/^\d+$/.test(rv)) return undefined;
  return BigInt(rv);
};

export type ExpectationCheck = { satisfied: true } | { satisfied: false; waitedMs: number };

export class ResourceVersionExpectations {
  private readonly expected = new Map<string, Expected>();

  constructor(private readonly now: () => number) {}

  /** Records that `key` was written and now has `resourceVersion` on the server. */
  expect(key: string, resourceVersion: string | undefined): void {
    const rv = parseRv(resourceVersion);
    if (rv === undefined) return;
    const prev = this.expected.get(key);
    if (!prev || rv > prev.resourceVersion) this.expected.set(key, { resourceVersion: rv, sinceMs: prev?.sinceMs ?? this.now() });
  }

  /** Compares the cached copy's resourceVersion; a satisfied expectation is cleared. */
  check(key: string, cachedResourceVersion: string | undefined): ExpectationCheck {
    const e = this.expected.get(key);
    if (!e) return { satisfied: true };
    const seen = parseRv(cachedResourceVersion);
    // Opaque (non-numeric) versions cannot be ordered; trust the cache rather than stall.
    if (seen === undefined || seen >= e.resourceVersion) {
      this.expected.delete(key);
      return { satisfied: true };
    }
    return { satisfied: false, waitedMs: this.now() - e.sinceMs };
  }

  delete(key: string): void {
    this.expected.delete(key);
  }

  get size(): number {
    return this.expected.size;
  }
}
