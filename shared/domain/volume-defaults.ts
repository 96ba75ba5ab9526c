// Kubernetes 1.32 defaults for pod volumes, as OpenKruise v1.9.0 applies them to SidecarSet `spec.volumes` and CloneSet
// template volumes (kruise apis/apps/defaults SetDefaultPodVolumes → k8s core/v1 SetDefaults_*). Kubernetes 1.31
// removed the ISCSI, RBD, AzureDisk and ScaleIO defaulters, and kruise v1.9.0 stopped calling them: those sources are
// left exactly as written. Works on plain JSON and keeps fields it does not know (volumes are never part of the
// SidecarSet hash; the CloneSet template's Go round trip happens after, in cloneset/defaults.ts).
import { defaultImagePullPolicy } from './image-ref.js';

type Json = Record<string, any>;

/** Every VolumeSource member in k8s 1.32; a volume with none of them set gets `emptyDir: {}`. */
const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile',
  'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO',
  'storageos', 'csi', 'ephemeral', 'image',
] as const;

/** File mode 0644, the default for secret, configMap, downwardAPI and projected volumes. */
const DEFAULT_MODE = 420;
const SERVICE_ACCOUNT_TOKEN_SECONDS = 3600;

export interface VolumeDefaultOptions {
  /**
   * Kubernetes' `ImageVolume` feature gate as the kruise manager sees it (alpha in 1.32, default off; kruise's
   * --feature-gates accepts Kubernetes' gate names). Only then does an image volume's empty pullPolicy get a default;
   * with it off the volume keeps an empty pullPolicy, which validation refuses (`…image.pullPolicy: Required value`).
   */
  imageVolume?: boolean;
}

/** Returns `volume` with Kubernetes' defaults filled in (mutates and returns the given object). */
export function defaultVolume(volume: Json, opts: VolumeDefaultOptions = {}): Json {
  const v = volume ?? {};
  if (VOLUME_SOURCES.every((k) => v[k] === undefined || v[k] === null)) v.emptyDir = {};
  if (opts.imageVolume && isObject(v.image) && !v.image.pullPolicy) {
    v.image.pullPolicy = defaultImagePullPolicy(typeof v.image.reference === 'string' ? v.image.reference : '');
  }
  if (v.hostPath) v.hostPath.type ??= '';
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) if (v[k]) v[k].defaultMode ??= DEFAULT_MODE;
  for (const item of v.downwardAPI?.items ?? []) defaultFieldRef(item?.fieldRef);
  for (const source of v.projected?.sources ?? []) {
    for (const item of source?.downwardAPI?.items ?? []) defaultFieldRef(item?.fieldRef);
    if (source?.serviceAccountToken) source.serviceAccountToken.expirationSeconds ??= SERVICE_ACCOUNT_TOKEN_SECONDS;
  }
  return v;
}

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

function defaultFieldRef(ref: Json | null | undefined): void {
  if (ref && !ref.apiVersion) ref.apiVersion = 'v1';
}
