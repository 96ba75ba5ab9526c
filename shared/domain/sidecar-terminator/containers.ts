// Which containers of a Job-like pod are sidecars for SidecarTerminator (spec node-probes-and-sidecar-lifecycle.md
// §8.1). Only `spec.containers` and only literal env values count: a `valueFrom` marker is not read (upstream reads
// `env.Value`), and init containers (native sidecars included) are never sidecars here — the kubelet ends those.
import type { Container, Pod } from '../../api/meta.js';

/** The marker of a sidecar stopped through a ContainerRecreateRequest (value `true`, any case). */
export const TerminateSidecarEnv = 'KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT';
/** With the marker above: the pod's phase is decided before the sidecar is stopped, so its exit code is ignored. */
export const IgnoreExitCodeEnv = 'KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE';
/** On virtual-kubelet nodes: the sidecar's image is replaced by this one (expected to exit at once). */
export const TerminateWithImageEnv = 'KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE';

const envTrue = (c: Container, name: string): boolean => (c.env ?? []).some((e) => e.name === name && (e.value ?? '').toLowerCase() === 'true');

export const isNormalSidecar = (c: Container): boolean => envTrue(c, TerminateSidecarEnv);
export const isIgnoreExitCodeSidecar = (c: Container): boolean => isNormalSidecar(c) && envTrue(c, IgnoreExitCodeEnv);
/** The image to run instead, when the container is an in-place (virtual-kubelet) sidecar; undefined otherwise. */
export function terminationImage(c: Container): string | undefined {
  for (const e of c.env ?? []) if (e.name === TerminateWithImageEnv && e.value) return e.value;
  return undefined;
}
export const isSidecar = (c: Container): boolean => isNormalSidecar(c) || terminationImage(c) !== undefined;

/** Names of the pod's main containers and of its sidecars. */
export function mainAndSidecars(pod: Pod): { main: Set<string>; sidecars: Set<string> } {
  const main = new Set<string>();
  const sidecars = new Set<string>();
  for (const c of pod.spec?.containers ?? []) (isSidecar(c) ? sidecars : main).add(c.name);
  return { main, sidecars };
}

export interface SidecarSets {
  /** Stopped through the CRR (normal nodes). */
  normal: Set<string>;
  /** Stopped through the CRR after the phase was decided (normal nodes). */
  ignoreExitCode: Set<string>;
  /** Image replaced in place (virtual-kubelet nodes). */
  inPlace: Set<string>;
}

/**
 * The sidecars each action works on, for a pod on a virtual-kubelet node or not. A sidecar marked only for the other
 * kind of node is a sidecar that nothing stops (upstream's getSidecarContainerNames).
 */
export function sidecarSets(pod: Pod, virtualKubelet: boolean): SidecarSets {
  const out: SidecarSets = { normal: new Set(), ignoreExitCode: new Set(), inPlace: new Set() };
  for (const c of pod.spec?.containers ?? []) {
    if (virtualKubelet) { if (terminationImage(c) !== undefined) out.inPlace.add(c.name); }
    else if (isIgnoreExitCodeSidecar(c)) out.ignoreExitCode.add(c.name);
    else if (isNormalSidecar(c)) out.normal.add(c.name);
  }
  return out;
}
