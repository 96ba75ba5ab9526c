// Namespaces a ResourceDistribution never writes into, whatever its targets say (review H5; beyond upstream, which
// excludes only kube-system and kube-public and only from allNamespaces/selectors): the cluster's own kube-*
// namespaces, and kruise's namespaces (labelled control-plane=openkruise), whose ConfigMaps and Secrets steer the
// webhook and the daemon. Shared by the webhook (refused when listed) and the controller (skipped).

export const PROTECTED_NAMESPACE_LABEL = 'control-plane';
export const PROTECTED_NAMESPACE_LABEL_VALUE = 'openkruise';

/** Why `name` is never a distribution target, or null when it may be one. `labels` are unknown for a missing namespace. */
export function protectedNamespaceReason(name: string, labels: Readonly<Record<string, string>> | undefined): string | null {
  if (name.startsWith('kube-')) return 'kube-* namespaces belong to the cluster';
  if (labels?.[PROTECTED_NAMESPACE_LABEL] === PROTECTED_NAMESPACE_LABEL_VALUE) {
    return `namespaces labelled ${PROTECTED_NAMESPACE_LABEL}=${PROTECTED_NAMESPACE_LABEL_VALUE} belong to kruise`;
  }
  return null;
}
