// Kubernetes v1.30 defaults for pod volumes, as OpenKruise applies them to SidecarSet `spec.volumes`
// (kruise apis/apps/defaults SetDefaultPodVolumes → k8s core/v1 SetDefaults_*). Works on plain JSON and keeps
// fields it does not know: volumes are never part of the hash, and a full Go schema for every volume source
// (down to ephemeral PVC templates with ObjectMeta) is not worth its weight here.

type Json = Record<string, any>;

/** Every VolumeSource member in k8s 1.30; a volume with none of them set gets `emptyDir: {}`. */
const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile',
  'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO',
  'storageos', 'csi', 'ephemeral',
] as const;

/** File mode 0644, the default for secret, configMap, downwardAPI and projected volumes. */
const DEFAULT_MODE = 420;
const SERVICE_ACCOUNT_TOKEN_SECONDS = 3600;

/** Returns `volume` with Kubernetes' defaults filled in (mutates and returns the given object). */
export function defaultVolume(volume: Json): Json {
  const v = volume ?? {};
  if (VOLUME_SOURCES.every((k) => v[k] === undefined || v[k] === null)) v.emptyDir = {};
  if (v.hostPath) v.hostPath.type ??= '';
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) if (v[k]) v[k].defaultMode ??= DEFAULT_MODE;
  for (const item of v.downwardAPI?.items ?? []) defaultFieldRef(item?.fieldRef);
  for (const source of v.projected?.sources ?? []) {
    for (const item of source?.downwardAPI?.items ?? []) defaultFieldRef(item?.fieldRef);
    if (source?.serviceAccountToken) source.serviceAccountToken.expirationSeconds ??= SERVICE_ACCOUNT_TOKEN_SECONDS;
  }
  if (v.iscsi && !v.iscsi.iscsiInterface) v.iscsi.iscsiInterface = 'default';
  if (v.rbd) {
    if (!v.rbd.pool) v.rbd.pool = 'rbd';
    if (!v.rbd.user) v.rbd.user = 'admin';
    if (!v.rbd.keyring) v.rbd.keyring = '/etc/ceph/keyring';
  }
  if (v.azureDisk) {
    v.azureDisk.cachingMode ??= 'ReadWrite';
    v.azureDisk.fsType ??= 'ext4';
    v.azureDisk.readOnly ??= false;
    v.azureDisk.kind ??= 'Shared';
  }
  if (v.scaleIO) {
    if (!v.scaleIO.storageMode) v.scaleIO.storageMode = 'ThinProvisioned';
    if (!v.scaleIO.fsType) v.scaleIO.fsType = 'xfs';
  }
  return v;
}

function defaultFieldRef(ref: Json | null | undefined): void {
  if (ref && !ref.apiVersion) ref.apiVersion = 'v1';
}
