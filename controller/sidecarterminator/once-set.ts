// A set that forgets its oldest entries past a limit: memory of what was done once, bounded whatever the input.
export class OnceSet {
  private readonly entries = new Set<string>();
  constructor(private readonly limit: number) {}

  has(key: string): boolean { return this.entries.has(key); }

  add(key: string): void {
    this.entries.delete(key);
    this.entries.add(key);
    // A Set iterates in insertion order: the first entry is the oldest.
    while (this.entries.size > this.limit) this.entries.delete(this.entries.values().next().value as string);
  }

  get size(): number { return this.entries.size; }
}
