// Where the rotation state lives: a Kubernetes Secret (default) or a directory (WEBHOOK_CERT_WRITER=fs, one replica).
import { mkdir, readFile, rename, symlink, writeFile, readlink, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CoreV1Api } from '@kubernetes/client-node';
import { decodeState, encodeState, isEmptyState, STATE_FILES, type CertState } from './state.js';

export interface Stored {
  state: CertState;
  /** Opaque optimistic-concurrency token (Secret resourceVersion); absent for the fs store. */
  version?: string;
}

export interface CertStore {
  read(): Promise<Stored | undefined>;
  /** 'conflict' when someone else created it first (another replica): the caller re-reads. */
  create(state: CertState): Promise<'created' | 'conflict'>;
  /** 'conflict' when the stored version is no longer `version` (another replica wrote first): nothing was written. */
  update(state: CertState, version: string | undefined): Promise<'updated' | 'conflict'>;
}

const code = (err: unknown) => (err as { code?: number })?.code;
const b64 = (data: Record<string, string>) => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
const unb64 = (data: Record<string, string> | undefined) => Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));

export function secretStore(core: CoreV1Api, namespace: string, name: string): CertStore {
  return {
    read: async () => {
      try {
        const s = await core.readNamespacedSecret({ namespace, name });
        return { state: decodeState(unb64(s.data)), version: s.metadata?.resourceVersion };
      } catch (err) {
        if (code(err) === 404) return undefined;
        throw new Error(`read secret ${namespace}/${name}`, { cause: err });
      }
    },
    create: async (state) => {
      try {
        await core.createNamespacedSecret({ namespace, body: { metadata: { name, namespace }, type: 'Opaque', data: b64(encodeState(state)) } });
        return 'created';
      } catch (err) {
        if (code(err) === 409) return 'conflict';
        throw new Error(`create secret ${namespace}/${name}`, { cause: err });
      }
    },
    update: async (state, version) => {
      // The replace carries the resourceVersion the decision was made on, so the apiserver refuses it (409) when
      // another replica wrote in between: two replicas never both mint, and neither clobbers the other's CA.
      try {
        const s = await core.readNamespacedSecret({ namespace, name });
        if (version && s.metadata?.resourceVersion !== version) return 'conflict';
        // Keys of ours a smaller state no longer has are removed; keys someone else added are kept.
        const others = Object.fromEntries(Object.entries(s.data ?? {}).filter(([k]) => !STATE_FILES.includes(k)));
        const body = { ...s, metadata: { ...s.metadata, ...(version ? { resourceVersion: version } : {}) }, data: { ...others, ...b64(encodeState(state)) } };
        await core.replaceNamespacedSecret({ namespace, name, body });
        return 'updated';
      } catch (err) {
        if (code(err) === 409 || code(err) === 404) return 'conflict';
        throw new Error(`update secret ${namespace}/${name}`, { cause: err });
      }
    },
  };
}

/**
 * Writes every file of the state into a fresh timestamped directory, then swaps the `..data` symlink with a rename,
 * as the kubelet's AtomicWriter does: a reader never sees a key from one generation next to a cert from another.
 */
export async function writeCertDir(dir: string, state: CertState, now: Date): Promise<void> {
  const files = encodeState(state);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const gen = `..${now.getTime()}_${process.pid}`;
  const genDir = join(dir, gen);
  await mkdir(genDir, { mode: 0o700 });
  for (const [file, text] of Object.entries(files)) await writeFile(join(genDir, file), text, { mode: 0o600 });
  const previous = await readlink(join(dir, '..data')).catch(() => undefined);
  await symlink(gen, join(dir, '..data_tmp'));
  await rename(join(dir, '..data_tmp'), join(dir, '..data'));
  for (const file of STATE_FILES) {
    if (!(file in files)) {
      await rm(join(dir, file), { force: true });
      continue;
    }
    await symlink(join('..data', file), join(dir, `${file}.tmp`)).catch(async () => {
      await rm(join(dir, `${file}.tmp`), { force: true });
      await symlink(join('..data', file), join(dir, `${file}.tmp`));
    });
    await rename(join(dir, `${file}.tmp`), join(dir, file));
  }
  if (previous && previous !== gen) await rm(join(dir, previous), { recursive: true, force: true });
}

/** One process only (main.ts refuses it behind a Service): a directory has no optimistic concurrency. */
export function fsStore(dir: string, now: () => Date): CertStore {
  const read = async (): Promise<Stored | undefined> => {
    const entries = await Promise.all(STATE_FILES.map(async (f) => [f, await readFile(join(dir, f), 'utf8').catch(() => '')] as const));
    const state = decodeState(Object.fromEntries(entries.filter(([, v]) => v)));
    return isEmptyState(state) ? undefined : { state };
  };
  return {
    read,
    create: async (state) => {
      if (await read()) return 'conflict';
      await writeCertDir(dir, state, now());
      return 'created';
    },
    update: async (state) => {
      await writeCertDir(dir, state, now());
      return 'updated';
    },
  };
}
