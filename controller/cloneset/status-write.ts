// Writes the CloneSet status (spec/cloneset.md §3.10): only when a counter, revision, selector or generation changed;
// GET, replace the whole status, PUT the status subresource, retry on conflict.
import type { CloneSet, CloneSetStatus } from '../../shared/api/cloneset.js';
import { statusChanged } from '../../shared/domain/cloneset/status.js';
import { resources } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';

const TRIES = 5;

export async function writeStatus(rest: KubeRest, cs: CloneSet, next: CloneSetStatus): Promise<void> {
  if (!statusChanged(cs.status, next)) return;
  const at = { namespace: cs.metadata?.namespace ?? '', name: cs.metadata?.name ?? '' };
  for (let attempt = 1; ; attempt++) {
    const fresh = attempt === 1 ? cs : await rest.find<CloneSet>(resources.cloneSets, at);
    if (!fresh || fresh.metadata?.uid !== cs.metadata?.uid) return;
    try {
      await rest.replace(resources.cloneSets, { ...fresh, apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', status: next }, { subresource: 'status' });
      return;
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isConflict(err) || attempt >= TRIES) throw err;
    }
  }
}
