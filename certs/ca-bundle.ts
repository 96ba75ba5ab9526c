// Where the trusted CAs are published: the caBundle of every webhook the apiserver calls. Rotation reads it as well
// as writing it, because "is the new CA trusted yet?" is a question about what the apiserver holds, not the Secret.

export interface CaBundleTarget {
  /** The CA certificates (PEM) each webhook's caBundle holds now, one list per webhook; [] when none is installed. */
  read(): Promise<string[][]>;
  /** Sets every webhook's caBundle to exactly these CAs, in this order; a webhook already so is not rewritten. */
  write(cas: string[]): Promise<void>;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The certificates in a PEM bundle, each normalised to end with a newline. */
export const splitPem = (bundle: string): string[] => (bundle.match(PEM_CERT) ?? []).map((c) => `${c}\n`);

export const joinPem = (cas: string[]): string => cas.map((c) => (c.endsWith('\n') ? c : `${c}\n`)).join('');

/** An in-memory caBundle for tests: one webhook; every write that changed it is recorded. */
export function memoryCaBundle(initial: string[] = []) {
  let cas = [...initial];
  const writes: string[][] = [];
  const target: CaBundleTarget & { cas(): string[]; writes: string[][] } = {
    read: async () => [[...cas]],
    write: async (next) => {
      if (joinPem(next) === joinPem(cas)) return;
      cas = [...next];
      writes.push([...next]);
    },
    cas: () => [...cas],
    writes,
  };
  return target;
}
