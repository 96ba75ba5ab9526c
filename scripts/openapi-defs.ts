// Kubernetes' OpenAPI definitions of its own types (core/v1 and the apimachinery types it uses), the source of the
// Kubernetes types embedded in the CRDs. They come from e2e/cluster/k8s/openapi-defs, a ten-line Go program over
// k8s.io/kubernetes/pkg/generated/openapi at the Kubernetes version of the local cluster (e2e/cluster/build.sh K8S=),
// built by build.sh into the binary cache like the cluster binaries, or here on demand when Go is installed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Definitions } from './crd-schema.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where build.sh puts the openapi-defs binary for its K8S/ETCD/KWOK versions (it may not be built yet). */
export function openapiDefsPath(repoRoot: string, env: Env): string {
  const script = readFileSync(join(repoRoot, 'e2e/cluster/build.sh'), 'utf8');
  const v = (name: string) => {
    const m = new RegExp(`^${name}=(\\S+)$`, 'm').exec(script)?.[1];
    if (!m) throw new Error(`e2e/cluster/build.sh sets no ${name}= version`);
    return m;
  };
  const root = env.KRUISE_TS_BIN_CACHE ?? join(env.XDG_CACHE_HOME ?? join(env.HOME ?? homedir(), '.cache'), 'kruise-ts-bins');
  return join(root, `k8s-${v('K8S')}-etcd-${v('ETCD')}-kwok-${v('KWOK')}`, 'openapi-defs');
}

/** Builds the binary where build.sh would (go build in e2e/cluster/k8s, minutes on a cold module cache). */
export function buildOpenapiDefs(repoRoot: string, path: string, env: Env): void {
  mkdirSync(join(path, '..'), { recursive: true });
  execFileSync('go', ['build', '-trimpath', '-ldflags', '-s -w', '-o', `${path}.tmp`, './openapi-defs'], {
    cwd: join(repoRoot, 'e2e/cluster/k8s'), stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod' },
  });
  renameSync(`${path}.tmp`, path);
}

/** The definitions the binary prints; undefined when it is not built. */
export function loadDefinitions(binary: string): Definitions | undefined {
  if (!existsSync(binary)) return undefined;
  return JSON.parse(execFileSync(binary, [], { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 60_000 })) as Definitions;
}
