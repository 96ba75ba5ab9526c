// Where the certificate bundle lives: a Kubernetes Secret (default) or a directory (WEBHOOK_CERT_WRITER=fs).
import { mkdir, readFile, rename, symlink, writeFile, readlink, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CoreV1Api } from '@kubernetes/client-node';
import { bundleFromSecretData, bundleToSecretData, type CertBundle } from './bundle.js';

export interface Stored {
  bundle: CertBundle;
  /** Opaque optimistic-concurrency token (Secret resourceVersion); absent for the fs store. */
  version?: string;
}

export interface CertStore {
  read(): Promise<Stored | undefined>;
  /** 'conflict' when someone else created it first (another replica): the caller re-reads. */
  create(bundle: CertBundle): Promise<'created' | 'conflict'>;
  update(bundle: CertBundle, version: string | undefined): Promise<void>;
}

const code = (err: unknown) => (err as { code?: number })?.code;

export function secretStore(core: CoreV1Api, namespace: string, name: string): CertStore {
  return {
    read: async () => {
      try {
        const s = await core.readNamespacedSecret({ namespace, name });
        return { bundle: bundleFromSecretData(s.data), version: s.metadata?.resourceVersion };
      } catch (err) {
        if (code(err) === 404) return undefined;
        throw new Error(`read secret ${namespace}/${name}`, { cause: err });
      }
    },
    create: async (bundle) => {
      try {
        await core.createNamespacedSecret({ namespace, body: { metadata: { name, namespace }, type: 'Opaque', data: bundleToSecretData(bundle) } });
        return 'created';
      } catch (err) {
        if (code(err) === 409) return 'conflict';
        throw new Error(`create secret ${namespace}/${name}`, { cause: err });
      }
    },
    update: async (bundle, version) => {
      // Replace with the read resourceVersion: if another replica rotated meanwhile the write fails and the next
      // sync re-reads instead of clobbering its CA.
      const s = await core.readNamespacedSecret({ namespace, name });
      if (version && s.metadata?.resourceVersion !== version) throw new Error(`secret ${namespace}/${name} changed concurrently`);
      s.data = { ...(s.data ?? {}), ...bundleToSecretData(bundle) };
      await core.replaceNamespacedSecret({ namespace, name, body: s });
    },
  };
}

const FILES: Record<string, (b: CertBundle) => string> = {
  'ca-key.pem': (b) => b.caKey,
  'ca-cert.pem': (b) => b.caCert,
  'key.pem': (b) => b.key,
  'tls.key': (b) => b.key,
  'cert.pem': (b) => b.cert,
  'tls.crt': (b) => b.cert,
};

/**
 * Writes every file into a fresh timestamped directory, then swaps the `..data` symlink with a rename, as the
 * kubelet's AtomicWriter does: a reader never sees a key from one generation next to a cert from another.
 */
export async function writeCertDir(dir: string, bundle: CertBundle, now: Date): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const gen = `..${now.getTime()}_${process.pid}`;
  const genDir = join(dir, gen);
  await mkdir(genDir, { mode: 0o700 });
  for (const [file, pick] of Object.entries(FILES)) await writeFile(join(genDir, file), pick(bundle), { mode: 0o600 });
  const previous = await readlink(join(dir, '..data')).catch(() => undefined);
  await symlink(gen, join(dir, '..data_tmp'));
  await rename(join(dir, '..data_tmp'), join(dir, '..data'));
  for (const file of Object.keys(FILES)) {
    await symlink(join('..data', file), join(dir, `${file}.tmp`)).catch(async () => {
      await rm(join(dir, `${file}.tmp`), { force: true });
      await symlink(join('..data', file), join(dir, `${file}.tmp`));
    });
    await rename(join(dir, `${file}.tmp`), join(dir, file));
  }
  if (previous && previous !== gen) await rm(join(dir, previous), { recursive: true, force: true });
}

export function fsStore(dir: string, now: () => Date): CertStore {
  const read = async (): Promise<Stored | undefined> => {
    const get = (f: string) => readFile(join(dir, f), 'utf8').catch(() => '');
    const bundle = { caKey: await get('ca-key.pem'), caCert: await get('ca-cert.pem'), key: await get('tls.key'), cert: await get('tls.crt') };
    return bundle.caKey || bundle.caCert || bundle.key || bundle.cert ? { bundle } : undefined;
  };
  return {
    read,
    create: async (bundle) => {
      if (await read()) return 'conflict';
      await writeCertDir(dir, bundle, now());
      return 'created';
    },
    update: (bundle) => writeCertDir(dir, bundle, now()),
  };
}
