// HotUpgrade sidecars are injected as a working/idle pair (spec/webhooks.md §2.8).
import type { Container } from '../../api/meta.js';
import type { SidecarContainer } from '../../api/sidecarset.js';
import {
  SidecarEnvVersion,
  SidecarEnvVersionAlt,
  SidecarSetVersionAltAnnotationPrefix,
  SidecarSetVersionAnnotationPrefix,
  SidecarSetWorkingHotUpgradeContainer,
} from '../../api/sidecarset.js';
import { formatStringMap } from './annotations.js';

export const isHotUpgrade = (c: SidecarContainer) => c.upgradeStrategy?.upgradeType === 'HotUpgrade';

function versionEnvs(name: string): NonNullable<Container['env']> {
  return [
    { name: SidecarEnvVersion, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${SidecarSetVersionAnnotationPrefix}${name}']` } } },
    { name: SidecarEnvVersionAlt, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${SidecarSetVersionAltAnnotationPrefix}${name}']` } } },
  ];
}

/**
 * `<C>-1` keeps the image and is the working container; `<C>-2` runs `hotUpgradeEmptyImage` and idles. Both get the
 * SIDECARSET_VERSION(_ALT) envs. `workInfo` (the pod's working-container map, shared by all SidecarSets of the request)
 * is updated in place so the annotation written last carries every pair.
 */
export function hotUpgradePair(c: SidecarContainer, workInfo: Record<string, string>): { containers: SidecarContainer[]; annotations: Record<string, string> } {
  // Shallow copies: only name, image and env (a new array) differ; the rest is shared, read-only (build-sidecars.ts).
  const working: SidecarContainer = { ...c, name: `${c.name}-1` };
  const idle: SidecarContainer = { ...c, name: `${c.name}-2`, image: c.upgradeStrategy?.hotUpgradeEmptyImage ?? '' };
  for (const copy of [working, idle]) copy.env = [...(copy.env ?? []), ...versionEnvs(copy.name)];
  workInfo[c.name] = working.name;
  return {
    containers: [working, idle],
    annotations: {
      [`${SidecarSetVersionAnnotationPrefix}${working.name}`]: '1',
      [`${SidecarSetVersionAnnotationPrefix}${idle.name}`]: '0',
      [`${SidecarSetVersionAltAnnotationPrefix}${working.name}`]: '0',
      [`${SidecarSetVersionAltAnnotationPrefix}${idle.name}`]: '1',
      [SidecarSetWorkingHotUpgradeContainer]: formatStringMap(workInfo),
    },
  };
}
