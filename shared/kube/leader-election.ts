// Lease-based leader election with client-go leaderelection semantics (style §5), over a narrow LeaseClient so the
// algorithm is tested against an in-memory fake. The Kubernetes adapter is lease-client.ts.
//
// Safety rests on two things, as in client-go: every write is conditional on the resourceVersion we read
// (a conflict means another candidate won the race), and expiry is judged on *our* clock from when we last saw the
// record change, never by comparing our clock with the holder's renewTime (clocks may be skewed).
import type { Logger } from 'pino';
import { sleep, type Clock } from '../clock.js';
import type { LeaderMetrics } from './leader-metrics.js';

/** The Lease fields leader election uses; times are epoch milliseconds. */
export interface LeaseRecord {
  namespace: string;
  name: string;
  /** Set by the server; replace() must fail with LeaseConflictError when it is stale. */
  resourceVersion?: string;
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: number;
  renewTime?: number;
  leaseTransitions?: number;
}

export interface LeaseClient {
  /** undefined when the Lease does not exist. */
  get(namespace: string, name: string): Promise<LeaseRecord | undefined>;
  /** Throws LeaseConflictError when the Lease already exists. */
  create(lease: LeaseRecord): Promise<LeaseRecord>;
  /** Throws LeaseConflictError when lease.resourceVersion is not the current one. */
  replace(lease: LeaseRecord): Promise<LeaseRecord>;
}

/** Another candidate wrote the Lease first (HTTP 409 AlreadyExists / Conflict). */
export class LeaseConflictError extends Error {
  readonly code = 'LEASE_CONFLICT';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LeaseConflictError';
  }
}

export interface LeaderElectionOptions {
  client: LeaseClient;
  namespace: string;
  name: string;
  /** Unique per process, e.g. `${podName}_${randomUUID()}`, so a restarted pod does not inherit the old lease. */
  identity: string;
  leaseDurationSeconds?: number;
  renewDeadlineSeconds?: number;
  retryPeriodSeconds?: number;
  clock: Clock;
  /** [0,1) source for retry jitter; tests pass a constant. */
  random?: () => number;
  log: Logger;
  /** Called once leadership is acquired; `signal` aborts when it is lost or the elector stops. */
  onStartedLeading: (signal: AbortSignal) => void | Promise<void>;
  /** Called after leadership ends (only if it was acquired). The process should usually exit, as controller-runtime does. */
  onStoppedLeading?: () => void;
  /** Called whenever a different holder is observed (including ourselves). */
  onNewLeader?: (identity: string) => void;
  /** Told on(name) when leadership is acquired and off(name) when campaigning starts and when leadership ends. */
  metrics?: LeaderMetrics;
  /** Clear the holder on stop so a successor need not wait out the lease (controller-runtime LeaderElectionReleaseOnCancel). Default true. */
  releaseOnCancel?: boolean;
}

/** client-go's JitterFactor for the acquire loop: sleep retryPeriod·(1 + 1.2·rand). */
const JITTER_FACTOR = 1.2;

export class LeaderElector {
  private readonly o: Required<Pick<LeaderElectionOptions, 'leaseDurationSeconds' | 'renewDeadlineSeconds' | 'retryPeriodSeconds' | 'releaseOnCancel'>> & LeaderElectionOptions;
  private observed: LeaseRecord | undefined;
  private observedAt = 0;
  private leading = false;

  /** Validates the timing like client-go NewLeaderElector; does no I/O. */
  constructor(opts: LeaderElectionOptions) {
    this.o = { leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2, releaseOnCancel: true, ...opts };
    const { leaseDurationSeconds: lease, renewDeadlineSeconds: renew, retryPeriodSeconds: retry } = this.o;
    if (!(lease > renew)) throw new Error('leaseDurationSeconds must be greater than renewDeadlineSeconds');
    if (!(renew > JITTER_FACTOR * retry)) throw new Error(`renewDeadlineSeconds must be greater than retryPeriodSeconds*${JITTER_FACTOR}`);
    if (!(retry > 0)) throw new Error('retryPeriodSeconds must be positive');
    if (!opts.identity) throw new Error('identity must not be empty');
  }

  isLeader(): boolean {
    return this.leading;
  }

  /** The holder we last observed ('' if none). */
  leader(): string {
    return this.observed?.holderIdentity ?? '';
  }

  /**
   * Campaigns until leadership is acquired, leads until renewal fails for renewDeadline or `signal` aborts, then
   * (when stopping) releases the lease. Resolves after onStoppedLeading; it does not campaign again.
   */
  async run(signal: AbortSignal): Promise<void> {
    const { log, metrics, name } = this.o;
    // A standby reports 0 (client-go reports nothing until it first leads), so "no leader anywhere" is visible.
    metrics?.off(name);
    if (!(await this.acquire(signal))) return;
    this.leading = true;
    metrics?.on(name);
    log.info({ lease: this.leaseName(), identity: this.o.identity }, 'acquired lease');
    const leadership = new AbortController();
    const stop = () => leadership.abort();
    signal.addEventListener('abort', stop, { once: true });
    Promise.resolve()
      .then(() => this.o.onStartedLeading(leadership.signal))
      .catch((err: unknown) => log.error({ err }, 'onStartedLeading failed'));
    try {
      await this.renew(leadership.signal);
    } finally {
      signal.removeEventListener('abort', stop);
      this.leading = false;
      metrics?.off(name);
      leadership.abort();
      if (signal.aborted) log.info({ lease: this.leaseName() }, 'stopping; giving up leadership');
      else log.error({ lease: this.leaseName(), renewDeadlineSeconds: this.o.renewDeadlineSeconds }, 'failed to renew lease; leadership lost');
      // Bounded like client-go's release (renewDeadline), so a dead API server cannot keep shutdown waiting.
      if (this.o.releaseOnCancel) await this.withTimeout(this.release(), this.o.renewDeadlineSeconds * 1000, undefined);
      this.o.onStoppedLeading?.();
    }
  }

  private async acquire(signal: AbortSignal): Promise<boolean> {
    const retryMs = this.o.retryPeriodSeconds * 1000;
    const random = this.o.random ?? Math.random;
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew()) return true;
      await sleep(this.o.clock, retryMs * (1 + JITTER_FACTOR * random()), signal);
    }
    return false;
  }

  /** Renews every retryPeriod; returns when `signal` aborts or no renewal succeeded for renewDeadline. */
  private async renew(signal: AbortSignal): Promise<void> {
    const { clock } = this.o;
    const deadlineMs = this.o.renewDeadlineSeconds * 1000;
    let lastRenew = clock.now();
    for (;;) {
      await sleep(clock, this.o.retryPeriodSeconds * 1000, signal);
      if (signal.aborted) return;
      const left = deadlineMs - (clock.now() - lastRenew);
      // A hung API call must not keep us "leading" past the deadline, so each attempt races the time left.
      const ok = left > 0 && (await this.withTimeout(this.tryAcquireOrRenew(), left, false));
      if (ok) lastRenew = clock.now();
      else if (clock.now() - lastRenew >= deadlineMs) return;
    }
  }

  /** One read-modify-write; true when we hold the lease afterwards. Never throws. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { client, namespace, name, identity, clock } = this.o;
    const now = clock.now();
    const leaseDurationSeconds = this.o.leaseDurationSeconds;
    try {
      const current = await client.get(namespace, name);
      if (!current) {
        const created = await client.create({ namespace, name, holderIdentity: identity, leaseDurationSeconds, acquireTime: now, renewTime: now, leaseTransitions: 0 });
        this.observe(created, clock.now());
        return true;
      }
      if (!sameRecord(current, this.observed)) this.observe(current, now);
      const holder = current.holderIdentity ?? '';
      const validUntil = this.observedAt + (current.leaseDurationSeconds ?? leaseDurationSeconds) * 1000;
      if (holder !== '' && holder !== identity && validUntil > now) {
        this.o.log.debug({ lease: this.leaseName(), holder, validForMs: validUntil - now }, 'lease is held by another candidate');
        return false;
      }
      const mine = holder === identity;
      const updated = await client.replace({
        ...current,
        holderIdentity: identity,
        leaseDurationSeconds,
        renewTime: now,
        acquireTime: mine ? current.acquireTime ?? now : now,
        leaseTransitions: mine ? current.leaseTransitions ?? 0 : (current.leaseTransitions ?? 0) + 1,
      });
      this.observe(updated, clock.now());
      return true;
    } catch (err) {
      if (err instanceof LeaseConflictError) this.o.log.debug({ lease: this.leaseName() }, 'lost the race for the lease');
      else this.o.log.warn({ err, lease: this.leaseName() }, 'lease read/write failed');
      return false;
    }
  }

  /** Clears the holder if it is still us (optimistically, on a fresh read), so a successor can take over at once. */
  private async release(): Promise<void> {
    const { client, namespace, name, identity, clock } = this.o;
    try {
      const current = await client.get(namespace, name);
      if (!current || current.holderIdentity !== identity) return;
      const now = clock.now();
      // As client-go: leaseDurationSeconds 1 so candidates that do not look at the holder still see it expire fast.
      const released = await client.replace({ ...current, holderIdentity: undefined, leaseDurationSeconds: 1, acquireTime: now, renewTime: now });
      this.observe(released, clock.now());
      this.o.log.info({ lease: this.leaseName() }, 'released lease');
    } catch (err) {
      this.o.log.warn({ err, lease: this.leaseName() }, 'failed to release lease; successor will wait for it to expire');
    }
  }

  private observe(record: LeaseRecord, at: number): void {
    const before = this.observed?.holderIdentity ?? '';
    this.observed = record;
    this.observedAt = at;
    const after = record.holderIdentity ?? '';
    if (after !== before && after !== '') this.o.onNewLeader?.(after);
  }

  /** `p`, or `fallback` after `ms`; `p` must not reject. */
  private withTimeout<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
    return new Promise((resolve) => {
      const t = this.o.clock.setTimeout(() => resolve(fallback), ms);
      void p.then((v) => { this.o.clock.clearTimeout(t); resolve(v); });
    });
  }

  private leaseName(): string {
    return `${this.o.namespace}/${this.o.name}`;
  }
}

/** Same holder state, ignoring resourceVersion (client-go compares the raw record, which has no resourceVersion). */
function sameRecord(a: LeaseRecord, b: LeaseRecord | undefined): boolean {
  return b !== undefined && (a.holderIdentity ?? '') === (b.holderIdentity ?? '') && a.renewTime === b.renewTime &&
    a.acquireTime === b.acquireTime && a.leaseTransitions === b.leaseTransitions && a.leaseDurationSeconds === b.leaseDurationSeconds;
}
