// The one place that turns configuration into API clients (style §2 shared/kube/client.ts).
import {
  AdmissionregistrationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  AppsV1Api,
  createConfiguration,
  ServerConfiguration,
  type Configuration,
} from '@kubernetes/client-node';
import { timeoutHttpLibrary } from './client-timeout.js';
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

/** The default of `apiTimeoutMs`: as the REST client's (rest.ts), half the apiserver's own 60 s. */
export const DEFAULT_API_TIMEOUT_MS = 30_000;

/** KubernetesObjectApi over our configuration, with the context's default namespace as its makeApiClient sets it. */
class ObjectApi extends KubernetesObjectApi {
  constructor(kc: KubeConfig, configuration: Configuration) {
    super(configuration);
    this.setDefaultNamespace(kc);
  }
}

/**
 * KUBECONFIG path when given, else the in-cluster service account (see loadKubeConfig). Every request of these
 * clients fails with KubeTimeoutError after `apiTimeoutMs` (client-timeout.ts); KubeConfig.makeApiClient would
 * build clients whose requests can wait forever.
 */
export function makeKube(opts: { kubeconfig: string | undefined; apiTimeoutMs?: number }, env: Record<string, string | undefined> = {}): Kube {
  const kc = loadKubeConfig(opts, env);
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  // What makeApiClient builds, plus the transport with the deadline.
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kc },
    httpApi: timeoutHttpLibrary(opts.apiTimeoutMs ?? DEFAULT_API_TIMEOUT_MS),
  });
  return {
    kc,
    core: new CoreV1Api(configuration),
    apps: new AppsV1Api(configuration),
    custom: new CustomObjectsApi(configuration),
    admission: new AdmissionregistrationV1Api(configuration),
    objects: new ObjectApi(kc, configuration),
  };
}
