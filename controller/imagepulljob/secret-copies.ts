// Pull secrets for the daemon (spec/openkruise-v1.9.md §7.1, v1.9 "batch" mode): the daemon reads Secrets only in the
// daemon-config namespace, so every Secret a job lists in spec.pullSecrets is copied there once per source Secret
// and the copy is shared by every job that lists that source. A copy's `references` annotation names its jobs
// (sorted, comma-joined); a job that finishes, is deleted or no longer lists the source takes itself off, and the last
// one out deletes the copy. Copies written by v1.8 (per job, no `mode`) are reused like any other with the same
// source key. Pure: the caller applies the plan.
import { createHash } from 'node:crypto';
import type { V1Secret } from '@kubernetes/client-node';
import {
  ImagePullJobSecretBatchMode as BatchMode,
  ImagePullJobSecretModeAnnotation as ModeAnno,
  ImagePullJobSecretReferencesAnnotation as ReferencesAnno,
  ImagePullJobSecretSourceKeyAnnotation as SourceKeyAnno,
  type ImagePullJob,
} from '../../shared/api/image-pull-job.js';
import type { ReferenceObject } from '../../shared/api/v1beta1/node-image.js';

export interface SecretPlanInput {
  job: ImagePullJob;
  /** Deleting or completed: every copy referencing the job is released. */
  finished: boolean;
  /** Source Secrets of the job's namespace by name (undefined when missing). */
  source(name: string): V1Secret | undefined;
  /** Secrets in the daemon-config namespace. */
  copies: readonly V1Secret[];
  daemonNamespace: string;
}

export interface SecretPlan {
  create: V1Secret[];
  /** Whole objects to PUT (resourceVersion kept from the cache: a concurrent writer makes it conflict and retry). */
  update: V1Secret[];
  /** Copies left without references (deleted on the resourceVersion read, for the same reason). */
  delete: V1Secret[];
  /** What NodeImages must list for this job's image. */
  refs: ReferenceObject[];
  /** Listed sources that do not exist (skipped with a warning, as upstream). */
  missing: string[];
}

/** Secret names are DNS subdomains (≤ 253): the source name is cut so `<source>-<6 hex>` still fits. */
const MAX_PREFIX = 253 - 7;

/**
 * `<source>-<6 hex>` as upstream names copies, but the hex is taken from a hash of the source key instead of three
 * random bytes: two reconciles that both find no copy (the cache had not seen the first one yet) then create the
 * same name, and the second gets AlreadyExists and joins that copy (writes.ts) instead of making another. Upstream
 * keeps in-memory expectations for that.
 */
export function copyName(sourceKey: string): string {
  const name = sourceKey.slice(sourceKey.indexOf('/') + 1);
  return `${name.slice(0, MAX_PREFIX)}-${createHash('sha256').update(sourceKey).digest('hex').slice(0, 6)}`;
}

export const jobKey = (job: ImagePullJob) => `${job.metadata?.namespace}/${job.metadata?.name}`;
export const referencesOf = (s: V1Secret) => (s.metadata?.annotations?.[ReferencesAnno] ?? '').split(',').filter(Boolean);
export const sourceKeyOf = (s: V1Secret) => s.metadata?.annotations?.[SourceKeyAnno] ?? '';
const sourceKey = (s: V1Secret) => `${s.metadata?.namespace}/${s.metadata?.name}`;
/** Annotations never copied: kubectl's last-applied copy of the source manifest. */
const NOT_COPIED = new Set(['kubectl.kubernetes.io/last-applied-configuration']);

/** The copy with `references` set to `refs` (sorted, comma-joined). */
export function withReferences(copy: V1Secret, refs: Iterable<string>): V1Secret {
  return { ...copy, metadata: { ...copy.metadata, annotations: { ...copy.metadata?.annotations, [ReferencesAnno]: [...new Set(refs)].sort().join(',') } } };
}

/** A new shared copy of `src` referenced by `job`: the source's labels and annotations plus source key and mode. */
export function newCopy(src: V1Secret, job: ImagePullJob, ns: string): V1Secret {
  const annotations = Object.fromEntries(Object.entries(src.metadata?.annotations ?? {}).filter(([k]) => !NOT_COPIED.has(k)));
  return {
    apiVersion: 'v1', kind: 'Secret',
    metadata: {
      name: copyName(sourceKey(src)), namespace: ns,
      ...(src.metadata?.labels ? { labels: { ...src.metadata.labels } } : {}),
      annotations: { ...annotations, [SourceKeyAnno]: sourceKey(src), [ReferencesAnno]: jobKey(job), [ModeAnno]: BatchMode },
    },
    ...(src.type ? { type: src.type } : {}),
    ...(src.data ? { data: src.data } : {}),
  };
}

const sameData = (a: Record<string, string> | undefined, b: Record<string, string> | undefined) =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort());

/** The NodeImage ref for a copy: a reused copy carries its own mode (none for a v1.8 copy). */
const refTo = (copy: V1Secret, ns: string): ReferenceObject => {
  const mode = copy.metadata?.annotations?.[ModeAnno];
  return { namespace: ns, name: copy.metadata!.name!, ...(mode ? { mode } : {}) };
};

export interface Classified {
  /** Per listed source name, the copy the job uses (undefined: none yet). */
  claim: Map<string, V1Secret | undefined>;
  release: V1Secret[];
}

/**
 * Upstream's classifyPullSecretsForJob: copies in name order, those being deleted skipped. While the job runs, a copy
 * of a listed source is chosen (the first by name, but one already referencing the job wins) and a copy referencing
 * the job whose source is no longer listed is released; once the job finished, every copy referencing it is.
 */
export function classify(input: SecretPlanInput): Classified {
  const { job } = input;
  const key = jobKey(job);
  const ns = job.metadata?.namespace ?? '';
  const listed = input.finished ? [] : [...new Set(job.spec?.pullSecrets ?? [])];
  const byKey = new Map<string, string>(listed.map((name) => [`${ns}/${name}`, name]));
  const claim = new Map<string, V1Secret | undefined>(listed.map((name) => [name, undefined]));
  const release: V1Secret[] = [];
  const copies = input.copies.filter((c) => !c.metadata?.deletionTimestamp)
    .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
  for (const copy of copies) {
    const refs = referencesOf(copy);
    const source = byKey.get(sourceKeyOf(copy));
    if (source === undefined) {
      if (refs.includes(key)) release.push(copy);
      continue;
    }
    const chosen = claim.get(source);
    if (!chosen || (refs.includes(key) && !referencesOf(chosen).includes(key))) claim.set(source, copy);
  }
  return { claim, release };
}

export function planSecrets(input: SecretPlanInput): SecretPlan {
  const { job, daemonNamespace: ns } = input;
  const names = [...new Set(job.spec?.pullSecrets ?? [])];
  const plan: SecretPlan = { create: [], update: [], delete: [], refs: [], missing: [] };
  // #2483: a running job without pull secrets has nothing to look at.
  if (!input.finished && names.length === 0) return plan;
  if (job.metadata?.namespace === ns) {
    // The daemon reads these directly. A missing one is left out rather than listed: the NodeImage controller drops
    // refs to missing Secrets there, and listing it again would make the two controllers take turns.
    if (input.finished) return plan;
    for (const name of names) {
      if (input.source(name)) plan.refs.push({ namespace: ns, name }); else plan.missing.push(name);
    }
    return plan;
  }
  const key = jobKey(job);
  const { claim, release } = classify(input);
  for (const copy of release) {
    const rest = referencesOf(copy).filter((r) => r !== key);
    if (rest.length === 0) plan.delete.push(copy); else plan.update.push(withReferences(copy, rest));
  }
  for (const [name, copy] of claim) {
    const src = input.source(name);
    if (!src) { plan.missing.push(name); continue; }
    if (!copy) {
      const fresh = newCopy(src, job, ns);
      plan.create.push(fresh);
      plan.refs.push(refTo(fresh, ns));
      continue;
    }
    const refs = referencesOf(copy);
    if (!sameData(copy.data, src.data) || !refs.includes(key)) {
      const updated = withReferences(copy, [...refs, key]);
      plan.update.push({ ...updated, data: src.data ?? {} });
    }
    plan.refs.push(refTo(copy, ns));
  }
  return plan;
}
