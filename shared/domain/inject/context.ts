// What injection needs from the outside world, gathered by the caller before the pure part runs (style P4).
import type { ControllerRevisionLike } from '../../api/controller-revision.js';
import type { SidecarSet } from '../../api/sidecarset.js';

export interface InjectionContext {
  operation: 'CREATE' | 'UPDATE';
  /** AdmissionRequest.namespace: used when the pod itself has no namespace yet. */
  requestNamespace?: string;
  /** Every SidecarSet; injection iterates them sorted by name (upstream: informer order, unspecified). */
  sidecarSets: readonly SidecarSet[];
  /** Labels of a Namespace; undefined = namespace not found. */
  namespaceLabels(name: string): Record<string, string> | undefined;
  /** ControllerRevisions in the kruise namespace. */
  revisions: {
    byName(name: string): ControllerRevisionLike | undefined;
    byCustomVersion(sidecarSetName: string, customVersion: string): ControllerRevisionLike[];
  };
  now: Date;
  /**
   * Gate EnableSortSidecarContainerByName (spec/openkruise-v1.9.md §4): all built sidecars of the pod are
   * stable-sorted by name before merging. Off: SidecarSet order, then each SidecarSet's container order.
   */
  sortSidecarContainersByName?: boolean;
  /** Uniform draw in [0, 1), like Go's rand.Float64. */
  random: () => number;
}
