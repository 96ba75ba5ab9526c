// HotUpgrade sidecars are injected as a working/idle pair (spec/webhooks.md §2.8).
import type { Container } from '../../api/meta.js';
import type { SidecarContainer } from '../../api/sidecarset.js';
import {
  HotUpgradeSuffixes,
  SidecarEnvVersion,
  SidecarEnvVersionAlt,
  SidecarSetVersionAltAnnotationPrefix,
  SidecarSetVersionAnnotationPrefix,
} from '../../api/sidecarset.js';

export const isHotUpgrade = (c: SidecarContainer) => c.upgradeStrategy?.upgradeType === 'HotUpgrade';

/** The two pod containers of HotUpgrade sidecar `name`: `<name>-1`, `<name>-2`. */
export const hotUpgradeSlots = (name: string): [string, string] => [`${name}${HotUpgradeSuffixes[0]}`, `${name}${HotUpgradeSuffixes[1]}`];
/** `version.sidecarset.kruise.io/<container>`: read by the container's SIDECARSET_VERSION env. */
export const versionAnnotation = (container: string) => `${SidecarSetVersionAnnotationPrefix}${container}`;
/** `versionalt.sidecarset.kruise.io/<container>`: read by the container's SIDECARSET_VERSION_ALT env. */
export const versionAltAnnotation = (container: string) => `${SidecarSetVersionAltAnnotationPrefix}${container}`;

function versionEnvs(name: string): NonNullable<Container['env']> {
  return [
    { name: SidecarEnvVersion, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${versionAnnotation(name)}']` } } },
    { name: SidecarEnvVersionAlt, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${versionAltAnnotation(name)}']` } } },
  ];
}

/**
 * `<C>-1` keeps the image and is the working container; `<C>-2` runs `hotUpgradeEmptyImage` and idles. Both get the
 * SIDECARSET_VERSION(_ALT) envs. `workInfo` (the pod's working-container map, shared by all SidecarSets of the request)
 * is updated in place; the caller writes it as the working-container annotation once, after the last pair (the map
 * comes from the pod, so formatting it per pair would cost pairs × its size).
 */
export function hotUpgradePair(c: SidecarContainer, workInfo: Record<string, string>): { containers: SidecarContainer[]; annotations: Record<string, string> } {
  // Shallow copies: only name, image and env (a new array) differ; the rest is shared, read-only (build-sidecars.ts).
  const [workingName, idleName] = hotUpgradeSlots(c.name);
  const working: SidecarContainer = { ...c, name: workingName };
  const idle: SidecarContainer = { ...c, name: idleName, image: c.upgradeStrategy?.hotUpgradeEmptyImage ?? '' };
  for (const copy of [working, idle]) copy.env = [...(copy.env ?? []), ...versionEnvs(copy.name)];
  workInfo[c.name] = working.name;
  return {
    containers: [working, idle],
    annotations: {
      [versionAnnotation(working.name)]: '1',
      [versionAnnotation(idle.name)]: '0',
      [versionAltAnnotation(working.name)]: '0',
      [versionAltAnnotation(idle.name)]: '1',
    },
  };
}
