// A V8-independent measure of admission work: every property read of the request's object (at any depth) is counted
// through Proxies. An algorithm that scans request data once per item of other request data (review C1: env vars
// scanned per $(VAR) reference per mount) shows as reads growing with a product of sizes, whatever the machine's speed.

export class ReadBudgetExceeded extends Error {
  constructor(readonly budget: number) {
    super(`more than ${budget} reads of the request object`);
    this.name = 'ReadBudgetExceeded';
  }
}

export interface ReadCounter<T> {
  /** The value seen through counting proxies (the same proxy for the same object, so identity comparisons hold). */
  value: T;
  reads(): number;
}

/** Counts reads of `root` and everything below it; throws ReadBudgetExceeded on the read past `budget`. */
export function countReads<T extends object>(root: T, budget = Infinity): ReadCounter<T> {
  let reads = 0;
  const proxies = new WeakMap<object, object>();
  const wrap = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    let p = proxies.get(v);
    if (!p) {
      p = new Proxy(v, {
        get(target, key, receiver) {
          if (++reads > budget) throw new ReadBudgetExceeded(budget);
          return wrap(Reflect.get(target, key, receiver));
        },
      });
      proxies.set(v, p);
    }
    return p;
  };
  return { value: wrap(root) as T, reads: () => reads };
}
