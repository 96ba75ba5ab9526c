// Seeded randomness for tests and fuzzers, so a failing case can be replayed from its seed.

/** mulberry32: small, fast and reproducible; a stand-in for Go's rand.Float64 in tests. */
export function seededRandom(seed = 42): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
