// The pool's waiting requests, by source address, served round-robin: a client that sends a hundred requests at once
// makes the apiserver's next review wait behind one of them, not behind all of them. Within a source, arrival order.
export class FairQueue<T extends { source: string }> {
  private readonly bySource = new Map<string, T[]>();
  /** Sources with waiting jobs, in the order they are next served. */
  private order: string[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(job: T): void {
    let q = this.bySource.get(job.source);
    if (!q) {
      this.bySource.set(job.source, (q = []));
      this.order.push(job.source);
    }
    q.push(job);
    this.count++;
  }

  /** Puts back a job taken earlier (pool.ts: taken back from a worker that never started it), first of its source. */
  unshift(job: T): void {
    const q = this.bySource.get(job.source);
    if (q) q.unshift(job);
    else {
      this.bySource.set(job.source, [job]);
      this.order.unshift(job.source);
    }
    this.count++;
  }

  /** The first job, in round-robin order, of a source `allowed` accepts (and that `fits`); that source then goes to the back. */
  take(allowed: (source: string) => boolean, fits?: (job: T) => boolean): T | undefined {
    for (let i = 0; i < this.order.length; i++) {
      const source = this.order[i]!;
      if (!allowed(source)) continue;
      const q = this.bySource.get(source)!;
      if (fits && !fits(q[0]!)) continue;
      const job = q.shift()!;
      this.count--;
      this.order.splice(i, 1);
      if (q.length) this.order.push(source);
      else this.bySource.delete(source);
      return job;
    }
    return undefined;
  }

  drain(): T[] {
    const all = this.order.flatMap((s) => this.bySource.get(s)!);
    this.bySource.clear();
    this.order = [];
    this.count = 0;
    return all;
  }
}
