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

/** How many distinct ids there are: 27^5 = 14,348,907. */
export const INSTANCE_ID_SPACE = INSTANCE_ID_ALPHABET.length ** INSTANCE_ID_LENGTH;

/**
 * At most this share of the id space is ever in use: past it, random draws collide too often to be cheap, and at
 * the whole space upstream's loop never ends. No CloneSet comes near it (a cluster holds ~150k pods).
 */
export const MAX_IDS_IN_USE = Math.floor(INSTANCE_ID_SPACE / 2);

/** Asking for more ids than the space allows at an acceptable cost (see MAX_IDS_IN_USE). */
export class InstanceIdsExhaustedError extends Error {
  constructor(count: number, taken: number) {
    super(`cannot generate ${count} new instance ids: ${taken} of ${INSTANCE_ID_SPACE} possible ids are in use, at most ${MAX_IDS_IN_USE} may be`);
    this.name = 'InstanceIdsExhaustedError';
  }
}

/**
 * `count` new ids, none equal to one in `taken` (ids of owned pods and PVCs) nor to each other, returned sorted as
 * upstream takes them. Each draw is uniform; a collision redraws. Always terminates: with at most half the space in
 * use a draw succeeds with probability ≥ 1/2, so 64 redraws per id are never needed in practice, and a `random`
 * that keeps colliding (or a space nearly full) ends in InstanceIdsExhaustedError rather than a loop.
 */
export function newInstanceIds(count: number, taken: ReadonlySet<string>, random: () => number): string[] {
  if (count <= 0) return [];
  if (count + taken.size > MAX_IDS_IN_USE) throw new InstanceIdsExhaustedError(count, taken.size);
  const out = new Set<string>();
  for (let draws = 64 * (count + 1); out.size < count; draws--) {
    if (draws === 0) throw new InstanceIdsExhaustedError(count, taken.size + out.size);
    const id = randomInstanceId(random);
    if (!taken.has(id)) out.add(id);
  }
  return [...out].sort();
}

/**
 * Ids handed out a few at a time, as one slow-start batch needs them: first `reused` (ids whose PVCs outlived their
 * pod, §2.5), then fresh ones. Nothing is drawn for batches that are never sent.
 */
export function instanceIdSource(reused: readonly string[], taken: ReadonlySet<string>, random: () => number): (n: number) => string[] {
  const used = new Set(taken);
  let r = 0;
  return (n) => {
    const fromReused = reused.slice(r, r + n);
    r += fromReused.length;
    for (const id of fromReused) used.add(id);
    const fresh = newInstanceIds(n - fromReused.length, used, random);
    for (const id of fresh) used.add(id);
    return [...fromReused, ...fresh].sort();
  };
}

export const podName = (cloneSetName: string, id: string): string => `${cloneSetName}-${id}`;
