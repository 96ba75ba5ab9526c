// What the apiserver wrote to etcd for an object, read through etcd's own JSON gateway (/v3/kv/range) on the
// harness's loopback etcd: the version a custom resource is stored in is only visible there (the apiserver always
// answers in the version asked for). Custom resources are stored as JSON under /registry/<group>/<plural>/[<ns>/]<name>.
import { readFileSync } from 'node:fs';
import type { StackState } from './cluster/state.js';

/** The etcd client URL of the harness's cluster (from the etcd process's command line), or undefined. */
export function etcdUrl(s: StackState): string | undefined {
  const etcd = s.processes.find((p) => p.name === 'etcd');
  if (!etcd) return undefined;
  try {
    const args = readFileSync(`/proc/${etcd.pid}/cmdline`, 'utf8').split('\0');
    const flag = args.find((a) => a.startsWith('--listen-client-urls='));
    return flag?.slice('--listen-client-urls='.length).split(',')[0];
  } catch {
    return undefined;
  }
}

export const registryKey = (plural: string, name: string, namespace?: string) =>
  `/registry/apps.kruise.io/${plural}/${namespace ? `${namespace}/` : ''}${name}`;

/** The stored object's apiVersion (undefined when the key does not exist). */
export async function storedApiVersion(url: string, key: string): Promise<string | undefined> {
  const res = await fetch(`${url}/v3/kv/range`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: Buffer.from(key).toString('base64') }), signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`etcd range ${key}: HTTP ${res.status}`);
  const body = (await res.json()) as { kvs?: { value: string }[] };
  const value = body.kvs?.[0]?.value;
  if (value === undefined) return undefined;
  return (JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as { apiVersion?: string }).apiVersion;
}
