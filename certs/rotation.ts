// The rotation decision, made by every replica on every sync from the shared state and the caBundle the apiserver
// holds (gather → decide → act, style P4). The invariants, for any number of replicas on one store:
//   1. a replica serves a leaf only when its CA is in caBundle: the CA set is published before a pair is served;
//   2. a renewed pair is served only from `serveFrom`, at least one grace period (≥ every replica's resync interval)
//      after its CA was first seen published in every webhook, and never while some webhook still lacks that CA;
//   3. the previous CA leaves caBundle one grace period after `serveFrom`, when every replica has switched;
//   4. a CA that leaves the state for any other reason (Secret deleted, corrupted, host changed) stays in caBundle
//      as `retired` for two grace periods, covering replicas that still serve its leaf from memory.
// Only the replica whose write lands (the store's optimistic concurrency) changes the state; the others re-read.
import { isComplete, type CertBundle } from './bundle.js';
import type { CertState } from './state.js';
import { fingerprint, nextBundle, pairProblem, regenerationReason, usableAt } from './verify.js';

export interface RotationInput {
  /** The stored state; undefined when the store holds nothing. */
  state: CertState | undefined;
  /** The CAs each webhook's caBundle holds, read before deciding (one list per webhook). */
  published: string[][];
  now: Date;
  host: string;
  renewBeforeMs: number;
  graceMs: number;
}

export interface Decision {
  state: CertState;
  /** Why the state changed; empty when it did not (nothing to write). */
  reasons: string[];
  /** The caBundle every webhook must hold: each CA whose leaf some replica may serve. */
  publish: string[];
  /** The pair to serve once `publish` is in place; undefined when none may be served yet. */
  serve?: CertBundle;
  /** When the next step is due (a switch or a promotion), so the caller can sync then rather than a resync later. */
  wakeAt?: Date;
}

type Gen = Parameters<typeof nextBundle>[3];

const EMPTY: CertBundle = { caKey: '', caCert: '', key: '', cert: '' };
const sameCA = (a: string, b: string) => fingerprint(a) !== undefined && fingerprint(a) === fingerprint(b);
const pairOf = (b: CertBundle): CertBundle => ({ caKey: b.caKey, caCert: b.caCert, key: b.key, cert: b.cert });

function cloneState(s: CertState | undefined): CertState {
  return {
    ...(s?.current ? { current: pairOf(s.current) } : {}),
    ...(s?.next ? { next: { ...pairOf(s.next), serveFrom: new Date(s.next.serveFrom) } } : {}),
    retired: (s?.retired ?? []).map((r) => ({ caCert: r.caCert, until: new Date(r.until) })),
  };
}

/** Decides the state, the caBundle and the pair to serve; `gen` mints keys when a pair is due. */
export function decide(input: RotationInput, gen: Gen): Decision {
  const { now, host, graceMs } = input;
  const at = (ms: number) => new Date(now.getTime() + ms);
  const s = cloneState(input.state);
  const reasons: string[] = [];
  const everywhere = (ca: string) => input.published.every((list) => list.some((c) => sameCA(c, ca)));
  const inState = (ca: string) => [s.current?.caCert, s.next?.caCert, ...s.retired.map((r) => r.caCert)].some((c) => c && sameCA(c, ca));
  const retire = (ca: string) => {
    if (usableAt(ca, now) && !inState(ca)) s.retired.push({ caCert: ca, until: at(2 * graceMs) });
  };

  const kept = s.retired.filter((r) => r.until > now && usableAt(r.caCert, now));
  if (kept.length !== s.retired.length) reasons.push('retired CA dropped after its grace period');
  s.retired = kept;

  // A pair that fails its checks leaves its slot; its CA stays in caBundle for a while, as a replica may serve it.
  const dropIfBroken = (slot: 'current' | 'next', what: string): boolean => {
    const pair = s[slot];
    const problem = pair ? pairProblem(pair, host) : undefined;
    if (!pair || !problem) return false;
    delete s[slot];
    retire(pair.caCert);
    reasons.push(`${what}: ${problem}`);
    return true;
  };

  if (s.next && !dropIfBroken('next', 'renewed pair discarded')
    && now.getTime() >= s.next.serveFrom.getTime() + graceMs && everywhere(s.next.caCert)) {
    // Every replica has synced at least once since serveFrom and serves this pair: the previous CA can go.
    s.current = pairOf(s.next);
    delete s.next;
    reasons.push('renewed pair promoted; previous CA dropped from caBundle');
  }

  dropIfBroken('current', 'stored pair unusable');

  if (s.current && !s.next) {
    const due = regenerationReason(s.current, host, now, input.renewBeforeMs);
    if (due) {
      s.next = { ...nextBundle(s.current, host, now, gen, input.renewBeforeMs), serveFrom: at(graceMs) };
      reasons.push(`renewal: ${due}`);
    }
  }

  if (!s.current && !s.next) {
    // Nothing usable stored (first start, Secret deleted or corrupted). CAs the apiserver trusts now may belong to
    // leaves other replicas still serve from memory: keep them, and serve the fresh pair only after a grace period.
    for (const ca of input.published.flat()) retire(ca);
    const fresh = nextBundle(EMPTY, host, now, gen, input.renewBeforeMs);
    if (s.retired.length === 0) {
      s.current = fresh;
      reasons.push('created certificates');
    } else {
      s.next = { ...fresh, serveFrom: at(graceMs) };
      reasons.push('created certificates; serving them once their CA has been published for a grace period');
    }
  }

  if (s.next && !everywhere(s.next.caCert) && s.next.serveFrom < at(graceMs)) {
    // Its CA is about to be (re)published: the grace period counts from now (the first publish may have failed,
    // or a replica working from an older state may have overwritten it).
    s.next.serveFrom = at(graceMs);
    reasons.push('renewed CA not yet in every caBundle; serving it deferred');
  }

  const publish: string[] = [];
  for (const ca of [s.current?.caCert, s.next?.caCert, ...s.retired.map((r) => r.caCert)]) {
    if (ca && !publish.some((p) => sameCA(p, ca))) publish.push(ca);
  }

  const nextServable = s.next && now >= s.next.serveFrom && everywhere(s.next.caCert);
  const serve = nextServable ? pairOf(s.next!) : s.current && isComplete(s.current) ? pairOf(s.current) : undefined;
  const wakeAt = s.next ? (nextServable ? new Date(s.next.serveFrom.getTime() + graceMs) : s.next.serveFrom) : s.retired.map((r) => r.until).sort((a, b) => a.getTime() - b.getTime())[0];
  return { state: s, reasons, publish, ...(serve ? { serve } : {}), ...(wakeAt ? { wakeAt } : {}) };
}
