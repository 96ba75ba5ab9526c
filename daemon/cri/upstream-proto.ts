// Locates the upstream CRI api.proto in the Go module cache. Test support only: the upstream file is
// never copied into this repository, it is read where `go mod download` put it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The cri-api release our cri.proto is checked against (matches the Kubernetes 1.34 line used by e2e). */
export const CRI_API_VERSION = 'v0.34.4';

/**
 * Returns the absolute path of `pkg/apis/runtime/v1/api.proto` of k8s.io/cri-api at `version`, downloading
 * the module into the Go module cache when needed. Runs in a throwaway module so no go.mod is touched.
 */
export function upstreamCriProtoPath(version: string = CRI_API_VERSION): string {
  const dir = mkdtempSync(join(tmpdir(), 'cri-api-'));
  try {
    execFileSync('go', ['mod', 'init', 'example.invalid/cri-proto-check'], { cwd: dir, stdio: 'ignore' });
    const out = execFileSync('go', ['mod', 'download', '-json', `k8s.io/cri-api@${version}`], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const info = JSON.parse(out) as { Dir?: string; Error?: string };
    if (!info.Dir) throw new Error(`go mod download k8s.io/cri-api@${version}: ${info.Error ?? 'no Dir in output'}`);
    const path = join(info.Dir, 'pkg', 'apis', 'runtime', 'v1', 'api.proto');
    if (!existsSync(path)) throw new Error(`${path} does not exist`);
    return path;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
