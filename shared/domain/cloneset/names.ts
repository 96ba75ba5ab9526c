// Pod names and instance ids of CloneSet pods (spec/cloneset.md §2.2): `<cloneset>-<id>`, the id 5 characters of
// apimachinery rand.String's alphabet (no vowels, no 0/1/3, so ids never spell words or look alike).
export const INSTANCE_ID_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
export const INSTANCE_ID_LENGTH = 5;

/** One random id; `random` returns a float in [0, 1) (Math.random, or a seeded one in tests). */
export function randomInstanceId(random: () => number): string {
  let id = '';
  for (let i = 0; i < INSTANCE_ID_LENGTH; i++) id += INSTANCE_ID_ALPHABET[Math.floor(random() * INSTANCE_ID_ALPHABET.length)] ?? 'b';
  return id;
}

/**
 * `count` new ids, none equal to one in `taken` (ids of owned pods and PVCs) nor to each other, returned sorted as
 * upstream takes them. Each draw is uniform; a collision redraws (27^5 ≈ 14 M ids, so redraws are rare and bounded
 * by `count` + taken in expectation).
 */
export function newInstanceIds(count: number, taken: ReadonlySet<string>, random: () => number): string[] {
  const out = new Set<string>();
  while (out.size < count) {
    const id = randomInstanceId(random);
    if (!taken.has(id)) out.add(id);
  }
  return [...out].sort();
}

export const podName = (cloneSetName: string, id: string): string => `${cloneSetName}-${id}`;
