// The kruise-ts image in the local cluster: built by `npm run image`'s own function (scripts/image.ts), pushed
// to the node's loopback registry under the name the manifests use.
import { buildKruiseTsImage, pushImageTo } from '../../../scripts/image.js';

/** The reference manifests/ gives the manager and daemon (docker.io/… for a mirroring containerd). */
export const KRUISE_TS_DEV_REF = 'kruise-ts/manager:dev';

/** Builds (or reuses) the image and pushes it as `kruise-ts/manager:dev`; resolves to the pushed reference. */
export async function pushKruiseTsImage(repoRoot: string, registryHost: string): Promise<string> {
  const ref = `${registryHost}/${KRUISE_TS_DEV_REF}`;
  await pushImageTo(await buildKruiseTsImage(repoRoot), `docker://${ref}`, { tlsVerify: false });
  return ref;
}
