// The real node as one step of `e2e/cluster.sh up`: launched before the control plane (its registry, images
// and containerd need no apiserver), joined once the control plane is up, then kruise-ts installed from
// manifests/ through the in-cluster overlay with its image pushed to the node's registry.
import { execFileSync } from 'node:child_process';
import { pushStandInImages } from '../images/stand-ins.js';
import { pushKruiseTsImage } from '../images/kruise-ts.js';
import { writeInClusterOverlay, type InClusterState } from './in-cluster.js';
import { startRealNode, type ControlPlaneRef, type RealNode } from './start.js';
import type { RealNodeState } from './stop.js';

export interface NodeLaunch {
  /** Hands the node the running control plane; resolves when the node is Ready. */
  join(cp: ControlPlaneRef): Promise<RealNode>;
  /** The control plane failed: the node stops what it started. */
  abort(err: unknown): Promise<void>;
  /** Applies manifests/ with the in-cluster overlay once the kruise-ts image is in the registry. */
  install(o: { runDir: string; apiPort: number; kubeconfig: string }): Promise<InClusterState>;
}

export function launchRealNode(o: { repoRoot: string; name: string; bin: string; logDir: string; onState: (s: RealNodeState) => void }): NodeLaunch {
  let ready: (cp: ControlPlaneRef) => void = () => {};
  let failed: (err: unknown) => void = () => {};
  const controlPlane = new Promise<ControlPlaneRef>((res, rej) => { ready = res; failed = rej; });
  controlPlane.catch(() => { /* reported by startRealNode */ });
  let image: Promise<string> | undefined;
  const node = startRealNode({
    name: o.name, bin: o.bin, logDir: o.logDir, controlPlane, onState: o.onState,
    seedImages: async (registryHost) => {
      // The kruise-ts image (a minute when cold) is not needed for the node to become Ready.
      image = pushKruiseTsImage(o.repoRoot, registryHost);
      image.catch(() => { /* awaited by install */ });
      await pushStandInImages(registryHost);
    },
  });
  node.catch(() => { /* awaited by join or abort */ });
  return {
    join(cp) { ready(cp); return node; },
    async abort(err) { failed(err); await node.catch(() => undefined); },
    async install({ runDir, apiPort, kubeconfig }) {
      const n = await node;
      if (!image) throw new Error('the kruise-ts image was never pushed');
      await image;
      const { dir, state } = await writeInClusterOverlay({ repoRoot: o.repoRoot, runDir, apiPort, node: n.state });
      execFileSync('kubectl', ['--kubeconfig', kubeconfig, 'apply', '-k', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
      return state;
    },
  };
}
