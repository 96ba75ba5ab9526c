// Maps changes of the watched objects to the ResourceDistribution keys they affect (spec §5.3 "Watches", §5.4).
// Handlers keep the little state they need (last seen generation, last seen namespace labels) because the shared
// caches hand over only the new object.
import type { KubernetesObject, V1Namespace } from '@kubernetes/client-node';
import type { ResourceDistribution } from '../../shared/api/resource-distribution.js';
import { controllerOf } from '../../shared/kube/keys.js';
import type { ChangeVerb } from '../../shared/kube/informer.js';
import { isIncluded, matchesTargets, matchesViaSelector } from './targets.js';
import { conflictingNamespaces, decodeResource } from './resource.js';

type Add = (key: string) => void;
type ListRds = () => readonly ResourceDistribution[];

const RD_GROUP = 'apps.kruise.io';

/** Every RD whose `test` holds; an RD whose selector cannot be built matches nothing rather than failing the watch. */
function enqueueWhere(rds: ListRds, add: Add, test: (rd: ResourceDistribution) => boolean): void {
  for (const rd of rds()) {
    const name = rd.metadata?.name;
    let hit = false;
    try { hit = test(rd); } catch { /* invalid selector: the RD's own reconcile reports it */ }
    if (name && hit) add(name);
  }
}

/**
 * RD events: create and delete, and updates that change the spec (a new generation) — not our own status writes.
 * A new uid under the same name counts as a create.
 */
export function rdHandler(add: Add): (rd: ResourceDistribution, verb: ChangeVerb) => void {
  const seen = new Map<string, string>();
  return (rd, verb) => {
    const name = rd.metadata?.name;
    if (!name) return;
    const version = `${rd.metadata?.uid}/${rd.metadata?.generation}`;
    if (verb === 'delete') {
      seen.delete(name);
      add(name);
      return;
    }
    if (seen.get(name) === version) return;
    seen.set(name, version);
    add(name);
  };
}

/**
 * Namespace events (§5.4): a new namespace → RDs whose targets select it; a deleted one → RDs that list it in
 * includedNamespaces (to report NamespaceNotExists); changed labels → RDs whose selector matches the old or the new
 * labels. The first sight of a namespace (including the initial list) counts as its creation.
 */
export function namespaceHandler(rds: ListRds, add: Add): (ns: V1Namespace, verb: ChangeVerb) => void {
  const labelsSeen = new Map<string, Record<string, string>>();
  return (ns, verb) => {
    const name = ns.metadata?.name;
    if (!name) return;
    const labels = ns.metadata?.labels ?? {};
    if (verb === 'delete') {
      labelsSeen.delete(name);
      enqueueWhere(rds, add, (rd) => isIncluded(rd.spec?.targets, name));
      return;
    }
    const old = labelsSeen.get(name);
    labelsSeen.set(name, labels);
    if (old === undefined) {
      enqueueWhere(rds, add, (rd) => matchesTargets(rd.spec?.targets, name, labels));
    } else if (!sameLabels(old, labels)) {
      enqueueWhere(rds, add, (rd) => matchesViaSelector(rd.spec?.targets, name, old) || matchesViaSelector(rd.spec?.targets, name, labels));
    }
  };
}

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/**
 * Copy events (ConfigMaps and Secrets): an update or delete of an object whose controller is an RD enqueues that RD,
 * so local edits and deletions are reverted; creates are ignored (the RD that created it already knows).
 * Beyond upstream: deleting an object an RD reported as a conflict enqueues that RD, so the copy appears without
 * waiting for another event.
 */
export function copyHandler(kind: 'ConfigMap' | 'Secret', rds: ListRds, add: Add): (obj: KubernetesObject, verb: ChangeVerb) => void {
  return (obj, verb) => {
    if (verb === 'add') return;
    const ref = controllerOf(obj);
    if (ref && ref.kind === 'ResourceDistribution' && ref.apiVersion?.split('/')[0] === RD_GROUP) {
      add(ref.name);
      return;
    }
    const { name, namespace } = obj.metadata ?? {};
    if (verb !== 'delete' || !name || !namespace) return;
    enqueueWhere(rds, add, (rd) => {
      const r = decodeResource(rd.spec?.resource);
      return 'kind' in r && r.kind === kind && r.name === name && conflictingNamespaces(rd).includes(namespace);
    });
  };
}
