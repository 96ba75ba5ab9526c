// CloneSet ControllerRevisions (spec/cloneset.md §2.3-2.4): the data bytes upstream writes, their FNV-1 hash, the
// revision name and object, and how revisions are listed and compared. Byte-exact data is what lets kruise-ts take
// over CloneSets created by OpenKruise without treating every pod as out of date.
import type { CloneSet } from '../../api/cloneset.js';
import { VolumeClaimTemplateHashAnnotation } from '../../api/cloneset.js';
import { KRUISE_API_VERSION } from '../../api/meta.js';
import { goJsonValue, goNormalize } from '../go-json.js';
import { canonicalRevisionData, ControllerRevisionHashLabel, revisionHash, revisionName } from '../sidecarset-revision.js';
import { podTemplateGoSchema } from './pod-template-go-schema.js';

/** The apps/v1 ControllerRevision fields CloneSet reads and writes. */
export interface CloneSetRevision {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string; namespace?: string; uid?: string; resourceVersion?: string; creationTimestamp?: Date;
    labels?: Record<string, string>; annotations?: Record<string, string>;
    ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }[];
  };
  revision: number;
  data: unknown;
}

/** spec.template as the Go decoder leaves it: unknown fields dropped, `metadata.creationTimestamp: null`. */
export function normalizedTemplate(cs: CloneSet): Record<string, unknown> {
  return goNormalize(cs.spec?.template ?? {}, 'PodTemplateSpec', podTemplateGoSchema) as Record<string, unknown>;
}

/** `{"spec":{"template":{"$patch":"replace",…}}}` with Go's map key order and escaping (§2.4 steps 1-3). */
export function revisionData(cs: CloneSet): string {
  return goJsonValue({ spec: { template: { ...normalizedTemplate(cs), $patch: 'replace' } } });
}

/** The template a revision stores (its data's spec.template without `$patch`). */
export function revisionTemplate(rev: Pick<CloneSetRevision, 'data'>): Record<string, any> | undefined {
  let data = rev.data;
  if (typeof data === 'string') {
    try { data = JSON.parse(data); } catch { return undefined; }
  }
  const t = (data as { spec?: { template?: Record<string, unknown> } } | null)?.spec?.template;
  if (!t || typeof t !== 'object') return undefined;
  const { $patch: _ignored, ...template } = t;
  return template;
}

/** The hash part of a revision name (what `pod-template-hash` carries). */
export const hashOf = (revisionName: string): string => revisionName.slice(revisionName.lastIndexOf('-') + 1);

/**
 * The revision upstream's NewRevision builds for `cs` at `collisionCount`. Annotations are all of the CloneSet's plus
 * the volumeClaimTemplate hash ('' without templates; any deterministic hash otherwise, §2.5).
 */
export function newRevision(cs: CloneSet, revision: number, collisionCount: number): CloneSetRevision {
  const data = revisionData(cs);
  const hash = revisionHash(data, collisionCount);
  const md = cs.metadata ?? {};
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(md.name ?? '', hash),
      namespace: md.namespace,
      labels: { ...(cs.spec?.template?.metadata?.labels ?? {}), [ControllerRevisionHashLabel]: hash },
      annotations: { ...(md.annotations ?? {}), [VolumeClaimTemplateHashAnnotation]: volumeClaimTemplatesHash(cs) },
      ownerReferences: [{ apiVersion: KRUISE_API_VERSION, kind: 'CloneSet', name: md.name ?? '', uid: md.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    revision,
    data: JSON.parse(data) as unknown,
  };
}

/** '' without volumeClaimTemplates; else a deterministic text of their names and specs (only compared for equality). */
export function volumeClaimTemplatesHash(cs: CloneSet): string {
  const vcts = cs.spec?.volumeClaimTemplates ?? [];
  if (vcts.length === 0) return '';
  const sorted = [...vcts].map((v) => ({ metadata: { name: v.metadata?.name ?? '' }, spec: v.spec ?? {} }))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  return revisionHash(goJsonValue(sorted), undefined);
}

/** Two revisions hold the same template: their data bytes are equal once canonical (the apiserver re-escapes <>&). */
export function equalRevisionData(a: Pick<CloneSetRevision, 'data'>, b: Pick<CloneSetRevision, 'data'>): boolean {
  return canonicalRevisionData(a.data) === canonicalRevisionData(b.data);
}

const created = (r: CloneSetRevision) => (r.metadata.creationTimestamp ? new Date(r.metadata.creationTimestamp).getTime() : 0);

/** Sorted by `revision`, ties by creationTimestamp then name (history.SortControllerRevisions). */
export function sortRevisions(revs: readonly CloneSetRevision[]): CloneSetRevision[] {
  return [...revs].sort((a, b) => a.revision - b.revision || created(a) - created(b) || (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
}

export const nextRevisionNumber = (sorted: readonly CloneSetRevision[]): number =>
  sorted.length === 0 ? 1 : sorted[sorted.length - 1]!.revision + 1;
