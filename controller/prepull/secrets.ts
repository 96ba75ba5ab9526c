// Pull secrets of a pre-pull, handed to the daemon as the ImagePullJob controller hands a job's (secret-copies.ts,
// spec/daemon-and-controllers.md §3.3): the daemon reads Secrets only in the daemon-config namespace, so each source
// gets a copy there, referenced by `<namespace>/<Kind>:<name>` of the workload. A Kind prefix can never be an
// ImagePullJob's name (object names are lowercase), so the ImagePullJob controller leaves these copies alone, and
// planSecrets (the one implementation) creates, syncs and releases them. The workload releases them once its
// pre-pull has nothing left to pull, or when it is deleted.
import type { V1Secret } from '@kubernetes/client-node';
import { ImagePullJobSecretReferencesAnnotation, type ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { ReferenceObject } from '../../shared/api/node-image.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import { planSecrets } from '../imagepulljob/secret-copies.js';
import { readSources } from '../imagepulljob/secret-sources.js';
import { applySecretPlan } from '../imagepulljob/writes.js';

export interface PrePullOwner { kind: 'SidecarSet' | 'CloneSet'; name: string; uid: string }

export interface SecretIO {
  rest: KubeRest;
  /** The Secrets of the daemon-config namespace (the cache the ImagePullJob controller watches). */
  copies: () => readonly V1Secret[];
  daemonNamespace: string;
}

const holderName = (owner: PrePullOwner) => `${owner.kind}:${owner.name}`;

/** The ImagePullJob-shaped holder planSecrets works on: the workload's pull secrets of one namespace. */
export function secretHolder(owner: PrePullOwner, namespace: string, names: readonly string[]): ImagePullJob {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob',
    metadata: { namespace, name: holderName(owner), uid: owner.uid },
    spec: { image: '', pullSecrets: [...new Set(names)] },
  } as ImagePullJob;
}

/**
 * Copies (or keeps in sync) the listed Secrets of each namespace for the daemon; resolves the references a NodeImage
 * lists. A listed Secret that does not exist is left out (the pull goes anonymously), as for an ImagePullJob.
 */
export async function ensurePrePullSecrets(io: SecretIO, owner: PrePullOwner, byNamespace: ReadonlyMap<string, readonly string[]>): Promise<{ refs: ReferenceObject[]; missing: string[] }> {
  const refs: ReferenceObject[] = [];
  const missing: string[] = [];
  for (const [namespace, names] of byNamespace) {
    if (names.length === 0) continue;
    const job = secretHolder(owner, namespace, names);
    const sources = await readSources(io.rest, job);
    const plan = planSecrets({ job, finished: false, daemonNamespace: io.daemonNamespace, source: (n) => sources.get(n), copies: io.copies() });
    await applySecretPlan(io.rest, plan);
    refs.push(...plan.refs);
    missing.push(...plan.missing.map((n) => `${namespace}/${n}`));
  }
  return { refs, missing };
}

/** Releases every copy held for the workload (deleted when nothing else references it); resolves how many namespaces. */
export async function releasePrePullSecrets(io: SecretIO, owner: Pick<PrePullOwner, 'kind' | 'name'>): Promise<number> {
  const suffix = `/${owner.kind}:${owner.name}`;
  const namespaces = new Set<string>();
  for (const s of io.copies()) {
    if (s.metadata?.namespace !== io.daemonNamespace) continue;
    for (const ref of (s.metadata?.annotations?.[ImagePullJobSecretReferencesAnnotation] ?? '').split(',')) {
      if (ref.endsWith(suffix)) namespaces.add(ref.slice(0, -suffix.length));
    }
  }
  for (const namespace of namespaces) {
    const job = secretHolder({ ...owner, uid: '' }, namespace, []);
    await applySecretPlan(io.rest, planSecrets({ job, finished: true, daemonNamespace: io.daemonNamespace, source: () => undefined, copies: io.copies() }));
  }
  return namespaces.size;
}
