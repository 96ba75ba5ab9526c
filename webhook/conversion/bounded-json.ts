// JSON text of a decoded value, cut at a length, for quoting an object in an error (review N-L1). JSON.stringify
// serialises the whole value (up to the 32 MiB body) to keep 1 KiB of it, and recurses: an object 10,000 levels deep
// overflowed the stack. This walk is iterative and stops once `limit` characters are out, so it visits at most about
// `limit` values and slices long strings before quoting them. For values that fit, the text equals JSON.stringify's.

type Entries = Iterator<[key: string | null, value: unknown]>;

function* objectEntries(o: Record<string, unknown>): Entries {
  for (const k in o) if (Object.hasOwn(o, k)) yield [k, o[k]];
}

function* arrayEntries(a: readonly unknown[]): Entries {
  for (let i = 0; i < a.length; i++) yield [null, a[i]];
}

/** The value's JSON text, or its first `limit` characters followed by `…` when longer. */
export function boundedJson(root: unknown, limit: number): string {
  let out = '';
  const stack: { close: string; entries: Entries; first: boolean }[] = [];
  const emit = (v: unknown): void => {
    if (Array.isArray(v)) {
      out += '[';
      stack.push({ close: ']', entries: arrayEntries(v), first: true });
    } else if (typeof v === 'object' && v !== null) {
      out += '{';
      stack.push({ close: '}', entries: objectEntries(v as Record<string, unknown>), first: true });
    } else if (typeof v === 'string') {
      const room = limit - out.length + 1; // one past the limit, so a cut string still shows as cut
      out += JSON.stringify(v.length > room ? v.slice(0, room) : v);
    } else {
      out += JSON.stringify(v) ?? 'null';
    }
  };
  emit(root);
  while (stack.length > 0 && out.length <= limit) {
    const frame = stack[stack.length - 1]!;
    const next = frame.entries.next();
    if (next.done) {
      out += frame.close;
      stack.pop();
      continue;
    }
    if (!frame.first) out += ',';
    frame.first = false;
    const [key, value] = next.value;
    if (key !== null) out += `${JSON.stringify(key.length > limit ? key.slice(0, limit + 1) : key)}:`;
    emit(value);
  }
  return stack.length > 0 || out.length > limit ? `${out.slice(0, limit)}…` : out;
}
