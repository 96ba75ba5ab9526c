// Where the manager's API server is and how it authenticates: shared by main.ts and the lease thread
// (lease-thread.ts), which builds its own client from the same settings.
import type { KubeConfig } from '@kubernetes/client-node';
import { loadApiServer, UnsupportedAuthError, type ApiServer } from '../shared/kube/kubeconfig.js';

/**
 * The API server and credentials without @kubernetes/client-node, whose module graph is a good part of an idle
 * manager's memory; a kubeconfig user that needs an exec or auth-provider plugin gets client-node's KubeConfig.
 */
export async function apiServer(config: { kubeconfig: string | undefined }, env: Record<string, string | undefined>): Promise<ApiServer | KubeConfig> {
  try {
    return loadApiServer(config, env);
  } catch (err) {
    if (!(err instanceof UnsupportedAuthError)) throw err;
    const { loadKubeConfig } = await import('../shared/kube/client.js');
    return loadKubeConfig(config, env);
  }
}
