// One call for tests that need a real container runtime: a loopback registry holding the sandbox image,
// and a private containerd pulling from it. Packages are installed by the test script, not here.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_IMAGE_NAME, SANDBOX_IMAGE_TAG, startContainerd, trustRegistry, type Containerd } from './containerd.js';
import { buildTestImage, pushImage, type TestImageSpec } from './image.js';
import { startRegistry, type Registry, type RegistryAuth } from './registry.js';

export { KubeletCri, podLabels, type TestPod, type TestContainerSpec } from './test-cri.js';
export { buildTestImage, pushImage, manifestDigest, type TestImageSpec } from './image.js';
export { startRegistry, type Registry, type RegistryAuth } from './registry.js';
export { startContainerd, trustRegistry, type Containerd } from './containerd.js';
export { startGateProxy, type GateProxy } from './gate-proxy.js';

export interface RuntimeEnv {
  dir: string;
  registry: Registry;
  containerd: Containerd;
  /** Builds (cached) and pushes a busybox-based image to `registry` (default: the env's own). */
  pushTestImage(spec: TestImageSpec, registry?: Registry): Promise<string>;
  /** Starts another registry (e.g. with htpasswd auth) that this containerd trusts over HTTP. */
  addRegistry(auth?: RegistryAuth): Promise<Registry>;
  stop(): Promise<void>;
}

export async function startRuntimeEnv(opts: { baseDir?: string } = {}): Promise<RuntimeEnv> {
  // Short base path: containerd's socket must fit in sun_path (107 bytes).
  const dir = mkdtempSync(join(opts.baseDir ?? '/tmp', 'kts-rt-'));
  const extra: Registry[] = [];
  let registry: Registry | undefined;
  let containerd: Containerd | undefined;
  const stop = async () => {
    await containerd?.stop();
    for (const r of [...extra, registry]) await r?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    registry = await startRegistry({ dir: join(dir, 'registry') });
    const pause = await buildTestImage({ name: SANDBOX_IMAGE_NAME, tag: SANDBOX_IMAGE_TAG, cmd: ['sleep', '2147483647'] });
    await pushImage(pause, registry.host);
    containerd = await startContainerd({ dir: join(dir, 'containerd'), registry });
  } catch (err) {
    await stop();
    throw err;
  }
  const reg = registry;
  const ctd = containerd;
  return {
    dir, registry: reg, containerd: ctd, stop,
    async pushTestImage(spec, target = reg) {
      return pushImage(await buildTestImage(spec), target.host, target.auth);
    },
    async addRegistry(auth) {
      const r = await startRegistry({ dir: join(dir, `registry-${extra.length + 1}`), auth });
      extra.push(r);
      trustRegistry(ctd.dir, r.host);
      return r;
    },
  };
}
