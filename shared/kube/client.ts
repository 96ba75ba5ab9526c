// The one place that turns configuration into API clients (style §2 shared/kube/client.ts).
import {
  AdmissionregistrationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  AppsV1Api,
} from '@kubernetes/client-node';

export interface Kube {
  kc: KubeConfig;
  core: CoreV1Api;
  apps: AppsV1Api;
  custom: CustomObjectsApi;
  admission: AdmissionregistrationV1Api;
  objects: KubernetesObjectApi;
}

/** KUBECONFIG path when given, else the in-cluster service account. */
export function makeKube(opts: { kubeconfig: string | undefined }): Kube {
  const kc = new KubeConfig();
  if (opts.kubeconfig) kc.loadFromFile(opts.kubeconfig);
  else kc.loadFromCluster();
  return {
    kc,
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    admission: kc.makeApiClient(AdmissionregistrationV1Api),
    objects: KubernetesObjectApi.makeApiClient(kc),
  };
}
