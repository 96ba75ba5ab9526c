// The one place that turns configuration into API clients (style §2 shared/kube/client.ts).
import {
  AdmissionregistrationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  AppsV1Api,
} from '@kubernetes/client-node';
import { inClusterServer } from './kubeconfig.js';

export interface Kube {
  kc: KubeConfig;
  core: CoreV1Api;
  apps: AppsV1Api;
  custom: CustomObjectsApi;
  admission: AdmissionregistrationV1Api;
  objects: KubernetesObjectApi;
}

/**
 * Credentials only: KUBECONFIG path when given, else the in-cluster service account, as client-node's KubeConfig.
 * The node daemon uses shared/kube/kubeconfig.ts instead, which loads nothing of client-node. `env` is where a pod
 * finds KUBERNETES_SERVICE_HOST/PORT (main.ts passes process.env): without either, and without a kubeconfig, this
 * throws KubeconfigError, where client-node's loadFromCluster would build `https://undefined:undefined` and every
 * request would fail with Invalid URL, forever.
 */
export function loadKubeConfig(opts: { kubeconfig: string | undefined }, env: Record<string, string | undefined> = {}): KubeConfig {
  const kc = new KubeConfig();
  if (opts.kubeconfig) kc.loadFromFile(opts.kubeconfig);
  else {
    inClusterServer(env);
    kc.loadFromCluster();
  }
  return kc;
}

/** KUBECONFIG path when given, else the in-cluster service account (see loadKubeConfig). */
export function makeKube(opts: { kubeconfig: string | undefined }, env: Record<string, string | undefined> = {}): Kube {
  const kc = loadKubeConfig(opts, env);
  return {
    kc,
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    admission: kc.makeApiClient(AdmissionregistrationV1Api),
    objects: KubernetesObjectApi.makeApiClient(kc),
  };
}
