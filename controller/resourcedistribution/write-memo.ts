// What this process wrote, remembered until the shared cache catches up (client-go controllers call these
// "expectations"). A reconcile that runs right after a pass of writes — the copies' own update events queue it —
// would otherwise see the versions those writes replaced and write them all again.
import type { Clock } from '../../shared/clock.js';

interface Entry<V> {
  /** The resourceVersion our write replaced; undefined when the object did not exist (a create). */
  staleRv: string | undefined;
  value: V;
  at: number;
}

export class WriteMemo<V> {
  private readonly entries = new Map<string, Entry<V>>();

  /** `ttlMs` bounds how long a write is trusted without the cache confirming it (e.g. while a watch is down). */
  constructor(private readonly clock: Clock, private readonly ttlMs = 60_000) {}

  /** Records that we wrote `value` to `key`, replacing the version `staleRv` (undefined: we created it). */
  wrote(key: string, staleRv: string | undefined, value: V): void {
    this.entries.set(key, { staleRv, value, at: this.clock.now() });
  }

  /** A cache event for `key`: any version other than the one we replaced means the cache has moved past our write. */
  seen(key: string, rv: string | undefined, deleted: boolean): void {
    const e = this.entries.get(key);
    if (e && (deleted || rv !== e.staleRv)) this.entries.delete(key);
  }

  /** What we wrote, while the cache still shows the version our write replaced (`cachedRv` undefined = absent). */
  pending(key: string, cachedRv: string | undefined): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.clock.now() - e.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e.staleRv === cachedRv ? e.value : undefined;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
