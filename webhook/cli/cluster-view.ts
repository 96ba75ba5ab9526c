// What a cluster would hold after the CLI's input were applied, for the lookups the webhook's handlers make: the
// SidecarSet as the apiserver stores it (v1beta1, converted by the same code /convert runs) and read back through the
// same cache adapter the webhook's informer uses; the Namespaces as the apiserver defaults them. With these, `inject`
// and `validate` decide as the webhook of a cluster would (spec/openkruise-v1.9.md §2.2, §2.4).
import type { KubernetesObject, V1Namespace } from '@kubernetes/client-node';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { KRUISE_API_VERSION_V1BETA1, NamespaceNameLabel } from '../../shared/api/v1beta1/sidecarset.js';
import { convertObject } from '../../shared/domain/conversion/scheme.js';
import { sidecarSetCacheForm } from '../../shared/kube/sidecarset-cache.js';
import type { KubeDocument } from './documents.js';

type StoredSidecarSet = SidecarSet & KubernetesObject;

/**
 * An admitted SidecarSet as the webhook's cache would see it: converted to the storage version v1beta1 when written in
 * another (a v1alpha1 `spec.namespace` becomes a `kubernetes.io/metadata.name` namespaceSelector that replaces any
 * other), then through the informer's transform. Throws ConversionError where /convert would fail.
 */
export function sidecarSetAsCached(admitted: StoredSidecarSet): StoredSidecarSet {
  const stored = admitted.apiVersion === KRUISE_API_VERSION_V1BETA1
    ? admitted
    : (convertObject(admitted as unknown as Record<string, unknown>, KRUISE_API_VERSION_V1BETA1) as unknown as StoredSidecarSet);
  return sidecarSetCacheForm(structuredClone(stored));
}

/**
 * The Namespaces a cluster would have: every Namespace document, labelled `kubernetes.io/metadata.name=<name>` as the
 * apiserver labels every Namespace (SetDefaults_Namespace); and, for `default` and each namespace an input document
 * is in but no Namespace document names, a Namespace with only that label: the document could not be created in a
 * namespace that did not exist.
 */
export function clusterNamespaces(input: readonly KubeDocument[]): V1Namespace[] {
  const given = input.filter((d) => d.kind === 'Namespace' && d.metadata?.name).map((d) => {
    const ns = structuredClone(d) as V1Namespace;
    const name = ns.metadata!.name!;
    ns.metadata!.labels = { ...ns.metadata!.labels, [NamespaceNameLabel]: name };
    return ns;
  });
  const known = new Set(given.map((n) => n.metadata!.name!));
  const implied = new Set(['default']);
  for (const d of input) if (d.kind !== 'Namespace' && typeof d.metadata?.namespace === 'string' && d.metadata.namespace) implied.add(d.metadata.namespace);
  const synthesized = [...implied].filter((n) => !known.has(n)).map((name): V1Namespace => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { [NamespaceNameLabel]: name } },
  }));
  return [...given, ...synthesized];
}
