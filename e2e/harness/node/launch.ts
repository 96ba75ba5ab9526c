// The real node as one step of `up`: its bridge first (the apiserver binds the bridge's address), its runtime
// (containerd, registry, images) while the control plane starts, the kubelet and kube-proxy once the control plane
// is up, then kruise-ts installed with Helm once its image is in the node's registry.
import { pushStandInImages } from '../images/stand-ins.js';
import { pushKruiseTsImage } from '../images/kruise-ts.js';
import { freePort } from '../runtime/process.js';
import { helmInstall, localValues, waitForRelease } from './helm-install.js';
import { prepareRealNode, startRealNode, type ControlPlaneRef, type RealNode } from './start.js';
import type { RealNodeState } from './stop.js';

/** What `up` recorded of the Helm release, for tests that upgrade it (`helm upgrade -f valuesFile`). */
export interface ReleaseState { name: string; valuesFile: string; daemonPort: number; installSeconds: number }

export interface NodeLaunch {
  /** The apiserver's bind and advertise address: the pod bridge's gateway. */
  apiAddress: string;
  /** Hands the node the running control plane; resolves when the node is Ready and kube-proxy has synced. */
  join(cp: ControlPlaneRef): Promise<RealNode>;
  /** The control plane failed: the node stops what it started. */
  abort(err: unknown): Promise<void>;
  /** `helm install` once the kruise-ts image is in the registry; resolves when the release serves. */
  install(o: { runDir: string; kubeconfig: string; helm: string; featureGates: string }): Promise<ReleaseState>;
}

export function launchRealNode(o: { repoRoot: string; name: string; bin: string; logDir: string; onState: (s: RealNodeState) => void }): NodeLaunch {
  let ready: (cp: ControlPlaneRef) => void = () => {};
  let failed: (err: unknown) => void = () => {};
  const controlPlane = new Promise<ControlPlaneRef>((res, rej) => { ready = res; failed = rej; });
  controlPlane.catch(() => { /* reported by startRealNode */ });
  let image: Promise<string> | undefined;
  const { state, apiAddress } = prepareRealNode(o.name, o.onState);
  const node = startRealNode({
    state, bin: o.bin, logDir: o.logDir, controlPlane, onState: o.onState,
    seedImages: async (registryHost) => {
      // The kruise-ts image (a minute when cold) is not needed for the node to become Ready.
      image = pushKruiseTsImage(o.repoRoot, registryHost);
      image.catch(() => { /* awaited by install */ });
      await pushStandInImages(registryHost);
    },
  });
  node.catch(() => { /* awaited by join or abort */ });
  return {
    apiAddress,
    join(cp) { ready(cp); return node; },
    async abort(err) { failed(err); await node.catch(() => undefined); },
    async install({ runDir, kubeconfig, helm, featureGates }) {
      const n = await node;
      if (!image) throw new Error('the kruise-ts image was never pushed');
      await image;
      const daemonPort = await freePort();
      const t0 = Date.now();
      const valuesFile = helmInstall({ helm, kubeconfig, repoRoot: o.repoRoot, runDir,
        values: localValues({ containerdDir: n.state.containerd!.dir, daemonPort, featureGates }) });
      await waitForRelease(kubeconfig);
      return { name: 'kruise-ts', valuesFile, daemonPort, installSeconds: (Date.now() - t0) / 1000 };
    },
  };
}
