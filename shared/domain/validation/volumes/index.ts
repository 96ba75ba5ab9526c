// A pod's `volumes` (k8s core validation ValidateVolumes / validateVolumeSource): exactly one source per volume (the
// first one set is validated, every later one is Forbidden), names DNS-1123 labels and unique. Returns the volumes
// that passed, by name, for the mount checks. Paths keep upstream's spellings, typos included (`downwarAPI`,
// `cephFS` in the "more than 1" error, `persistentDisk` for gcePersistentDisk problems).
import type { Violation } from '../../../errors.js';
import { duplicate, forbidden, invalid, isSet, list, obj, required, str, type Json } from '../field-errors.js';
import { isDNS1123Label, nameIsDNSSubdomain } from '../names.js';
import { validateEphemeral } from './ephemeral.js';
import { validateConfigMapVolume, validateDownwardAPIVolume, validateProjectedVolume, validateSecretVolume } from './projections.js';
import * as src from './sources.js';

type Validator = (source: Json, f: string) => Violation[];

/** [JSON key, name in the "more than 1" error, name in the source's own errors, validator], in upstream's order. */
const sources: readonly [string, string, string, Validator][] = [
  ['emptyDir', 'emptyDir', 'emptyDir', src.validateEmptyDir],
  ['hostPath', 'hostPath', 'hostPath', src.validateHostPath],
  ['gitRepo', 'gitRepo', 'gitRepo', src.validateGitRepo],
  ['gcePersistentDisk', 'gcePersistentDisk', 'persistentDisk', src.validateGCEPersistentDisk],
  ['awsElasticBlockStore', 'awsElasticBlockStore', 'awsElasticBlockStore', src.validateAWSElasticBlockStore],
  ['secret', 'secret', 'secret', validateSecretVolume],
  ['nfs', 'nfs', 'nfs', src.validateNFS],
  ['iscsi', 'iscsi', 'iscsi', src.validateISCSI],
  ['glusterfs', 'glusterfs', 'glusterfs', src.validateGlusterfs],
  ['flocker', 'flocker', 'flocker', src.validateFlocker],
  ['persistentVolumeClaim', 'persistentVolumeClaim', 'persistentVolumeClaim', src.validatePersistentVolumeClaim],
  ['rbd', 'rbd', 'rbd', src.validateRBD],
  ['cinder', 'cinder', 'cinder', src.validateCinder],
  ['cephfs', 'cephFS', 'cephfs', src.validateCephFS],
  ['quobyte', 'quobyte', 'quobyte', src.validateQuobyte],
  ['downwardAPI', 'downwarAPI', 'downwardAPI', validateDownwardAPIVolume],
  ['fc', 'fc', 'fc', src.validateFC],
  ['flexVolume', 'flexVolume', 'flexVolume', src.validateFlexVolume],
  ['configMap', 'configMap', 'configMap', validateConfigMapVolume],
  ['azureFile', 'azureFile', 'azureFile', src.validateAzureFile],
  ['vsphereVolume', 'vsphereVolume', 'vsphereVolume', src.validateVsphere],
  ['photonPersistentDisk', 'photonPersistentDisk', 'photonPersistentDisk', src.validatePhoton],
  ['portworxVolume', 'portworxVolume', 'portworxVolume', src.validatePortworx],
  ['azureDisk', 'azureDisk', 'azureDisk', src.validateAzureDisk],
  ['storageos', 'storageos', 'storageos', src.validateStorageOS],
  ['projected', 'projected', 'projected', validateProjectedVolume],
  ['scaleIO', 'scaleIO', 'scaleIO', src.validateScaleIO],
  ['csi', 'csi', 'csi', src.validateCSI],
  ['ephemeral', 'ephemeral', 'ephemeral', validateEphemeral],
  ['image', 'image', 'image', src.validateImage],
];

/** The fake pod kruise validates is named "test"; an ephemeral volume's PVC is "<pod>-<volume>". */
const fakePodName = 'test';

function validateSource(v: Json, idx: string, podName: string | undefined): Violation[] {
  const out: Violation[] = [];
  let count = 0;
  for (const [key, forbiddenName, childName, validate] of sources) {
    if (!isSet(v[key])) continue;
    if (count > 0) out.push(forbidden(`${idx}.${forbiddenName}`, 'may not specify more than 1 volume type'));
    else {
      count++;
      out.push(...validate(obj(v[key]) ?? {}, `${idx}.${childName}`));
      if (key === 'ephemeral' && podName && str(v.name) !== '') {
        const pvc = `${podName}-${str(v.name)}`;
        for (const m of nameIsDNSSubdomain(pvc, false)) out.push(invalid(`${idx}.name`, str(v.name), `PVC name ${JSON.stringify(pvc)}: ${m}`));
      }
    }
    // Upstream checks this one outside the "first source" branch.
    if (key === 'iscsi' && isSet(obj(v.iscsi)?.initiatorName) && `${str(v.name)}:${str(obj(v.iscsi)?.targetPortal)}`.length > 64) {
      out.push(invalid(`${idx}.name`, str(v.name), 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'));
    }
  }
  if (count === 0) out.push(required(idx, 'must specify a volume type'));
  return out;
}

/**
 * `podName` is the pod's name for the ephemeral-PVC checks; a pod template has none (Kubernetes passes no pod
 * metadata there), so those checks are skipped for it.
 */
export function validateVolumes(volumes: unknown, f: string, podName: string | undefined = fakePodName): { byName: Map<string, Json>; errors: Violation[] } {
  const errors: Violation[] = [];
  const byName = new Map<string, Json>();
  const items = list(volumes).map((v) => obj(v) ?? {});
  const createdClaims = new Set(podName ? items.filter((v) => isSet(v.ephemeral)).map((v) => `${podName}-${str(v.name)}`) : []);
  items.forEach((v, i) => {
    const idx = `${f}[${i}]`;
    const name = str(v.name);
    const el = validateSource(v, idx, podName);
    if (name === '') el.push(required(`${idx}.name`));
    else for (const m of isDNS1123Label(name)) el.push(invalid(`${idx}.name`, name, m));
    if (byName.has(name)) el.push(duplicate(`${idx}.name`, name));
    if (el.length === 0) byName.set(name, v);
    else errors.push(...el);
    const claim = str(obj(v.persistentVolumeClaim)?.claimName);
    if (isSet(v.persistentVolumeClaim) && createdClaims.has(claim)) {
      errors.push(invalid(`${idx}.persistentVolumeClaim.claimName`, claim, 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return { byName, errors };
}
