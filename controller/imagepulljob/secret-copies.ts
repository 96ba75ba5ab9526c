// Pull secrets for the daemon (spec/daemon-and-controllers.md §3.3, v1.8.2 per-job mode): the daemon reads Secrets
// only in the daemon-config namespace, so each job gets its own copy there of every Secret in spec.pullSecrets,
// kept in sync with the source, and released (reference removed, deleted when unreferenced) when the job finishes,
// is deleted, or stops listing it. Pure: the caller applies the plan.
import { createHash } from 'node:crypto';
import type { V1Secret } from '@kubernetes/client-node';
import {
  ImagePullJobSecretReferencesAnnotation as ReferencesAnno,
  ImagePullJobSecretSourceKeyAnnotation as SourceKeyAnno,
  ImagePullJobSecretSourceUIDLabel as SourceUidLabel,
  type ImagePullJob,
} from '../../shared/api/image-pull-job.js';
import type { ReferenceObject } from '../../shared/api/node-image.js';

export interface SecretPlanInput {
  job: ImagePullJob;
  /** Deleting or completed: every copy is released. */
  finished: boolean;
  /** Source Secrets of the job's namespace by name (undefined when missing). */
  source(name: string): V1Secret | undefined;
  /** Secrets in the daemon-config namespace. */
  copies: readonly V1Secret[];
  daemonNamespace: string;
}

export interface SecretPlan {
  create: V1Secret[];
  update: V1Secret[];
  delete: V1Secret[];
  /** What NodeImages must list for this job's image. */
  refs: ReferenceObject[];
  /** Listed sources that do not exist (skipped, as upstream). */
  missing: string[];
}

/** generateName's alphabet (no vowels, no look-alikes) and its 5-character suffix. */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
/** generateName keeps at most 58 characters of the prefix, so the name with "-" and suffix stays ≤ 63. */
const MAX_PREFIX = 57;

/**
 * The copy's name looks like generateName's `<source>-xxxxx`, but the suffix is derived from the job and the source
 * uids: a reconcile that runs before the cache has seen a copy it just made gets AlreadyExists instead of making a
 * second one (upstream keeps in-memory expectations for that).
 */
export function copyName(source: V1Secret, jobUid: string): string {
  const digest = createHash('sha256').update(`${jobUid}/${source.metadata?.uid ?? ''}`).digest();
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += ALPHABET[digest[i]! % ALPHABET.length];
  return `${(source.metadata?.name ?? '').slice(0, MAX_PREFIX)}-${suffix}`;
}

export const jobKey = (job: ImagePullJob) => `${job.metadata?.namespace}/${job.metadata?.name}`;
const referencesOf = (s: V1Secret) => (s.metadata?.annotations?.[ReferencesAnno] ?? '').split(',').filter(Boolean);
/** Annotations never copied: kubectl's last-applied copy of the source manifest. */
const NOT_COPIED = new Set(['kubectl.kubernetes.io/last-applied-configuration']);

function copyOf(src: V1Secret, job: ImagePullJob, ns: string, references: string[]): V1Secret {
  const annotations = Object.fromEntries(Object.entries(src.metadata?.annotations ?? {}).filter(([k]) => !NOT_COPIED.has(k)));
  return {
    apiVersion: 'v1', kind: 'Secret',
    metadata: {
      name: copyName(src, job.metadata?.uid ?? ''), namespace: ns,
      labels: { ...src.metadata?.labels, [SourceUidLabel]: src.metadata?.uid ?? '' },
      annotations: { ...annotations, [SourceKeyAnno]: `${src.metadata?.namespace}/${src.metadata?.name}`, [ReferencesAnno]: [...references].sort().join(',') },
    },
    ...(src.type ? { type: src.type } : {}),
    ...(src.data ? { data: src.data } : {}),
  };
}

const sameData = (a: V1Secret, b: V1Secret) => a.type === b.type && JSON.stringify(Object.entries(a.data ?? {}).sort()) === JSON.stringify(Object.entries(b.data ?? {}).sort());

export function planSecrets(input: SecretPlanInput): SecretPlan {
  const { job, daemonNamespace: ns } = input;
  const names = [...new Set(job.spec?.pullSecrets ?? [])];
  const plan: SecretPlan = { create: [], update: [], delete: [], refs: [], missing: [] };
  if (job.metadata?.namespace === ns) {
    // The daemon reads these directly. A missing one is left out rather than listed: the NodeImage controller drops
    // refs to missing Secrets there, and listing it again would make the two controllers take turns.
    for (const name of names) {
      if (input.source(name)) plan.refs.push({ namespace: ns, name }); else plan.missing.push(name);
    }
    return plan;
  }
  const key = jobKey(job);
  const wanted = new Map<string, V1Secret>();
  if (!input.finished) {
    for (const name of names) {
      const src = input.source(name);
      if (src?.metadata?.uid) wanted.set(src.metadata.uid, src); else plan.missing.push(name);
    }
  }
  const kept = new Map<string, V1Secret>();
  for (const copy of input.copies) {
    const refs = referencesOf(copy);
    if (copy.metadata?.deletionTimestamp || !refs.includes(key)) continue;
    const srcUid = copy.metadata?.labels?.[SourceUidLabel] ?? '';
    const src = wanted.get(srcUid);
    if (src && `${src.metadata?.namespace}/${src.metadata?.name}` === copy.metadata?.annotations?.[SourceKeyAnno] && !kept.has(srcUid)) {
      kept.set(srcUid, copy);
      continue;
    }
    const rest = refs.filter((r) => r !== key);
    if (rest.length === 0) plan.delete.push(copy);
    else plan.update.push({ ...copy, metadata: { ...copy.metadata, annotations: { ...copy.metadata?.annotations, [ReferencesAnno]: rest.join(',') } } });
  }
  for (const [uid, src] of wanted) {
    const copy = kept.get(uid);
    if (!copy) {
      const fresh = copyOf(src, job, ns, [key]);
      plan.create.push(fresh);
      plan.refs.push({ namespace: ns, name: fresh.metadata!.name! });
      continue;
    }
    const desired = copyOf(src, job, ns, referencesOf(copy));
    if (!sameData(copy, desired)) {
      plan.update.push({ ...copy, ...(desired.type ? { type: desired.type } : {}), data: desired.data ?? {} });
    }
    plan.refs.push({ namespace: ns, name: copy.metadata!.name! });
  }
  return plan;
}
