// Whether a ResourceDistribution's author may write what it distributes (review H5, beyond upstream). The controller
// writes copies with the manager's rights, so without this check anyone who may create an RD could plant Secrets and
// ConfigMaps in namespaces they cannot write themselves (a confused deputy). The webhook asks the apiserver
// (SubjectAccessReview, through `CanWrite`) before admitting; the pure part here says which checks a review needs.
//
// Scope rule (docs/compatibility.md): explicit includedNamespaces are checked one by one; allNamespaces or a
// namespaceLabelSelector reach namespaces that do not exist yet, so they need the right in every namespace
// (a SubjectAccessReview without a namespace). The controller then never has to re-check a new namespace.
import type { ResourceDistributionTargets } from '../../shared/api/resource-distribution.js';
import type { AdmissionRequest } from '../admission/review.js';

/** request.userInfo as the apiserver sends it: what a SubjectAccessReview needs to speak for that user. */
export interface RequestUser {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export type WriteVerb = 'create' | 'update';

/**
 * Whether `user` may `verb` the core-group `resource` (e.g. `secrets`) in `namespace` (`''`: in every namespace).
 * Rejects when it cannot tell (timeout, apiserver error, the source's budget spent): the caller refuses rather than
 * guesses. `source` is the address the review came from, which the SAR budget is charged to (sar-budget.ts).
 */
export type CanWrite = (user: RequestUser, verb: WriteVerb, resource: string, namespace: string, source?: string) => Promise<boolean>;

/** Explicit namespaces checked per review; each costs two SubjectAccessReviews unless cached. */
export const MAX_CHECKED_NAMESPACES = 50;
/** SubjectAccessReviews in flight per review. */
const CHECK_CONCURRENCY = 8;
const VERBS: readonly WriteVerb[] = ['create', 'update'];

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The requesting user, or undefined when the review names none (nothing to check the rights of). */
export function requestUser(req: AdmissionRequest): RequestUser | undefined {
  const u = req.userInfo as { username?: unknown; uid?: unknown; groups?: unknown; extra?: unknown } | undefined;
  if (typeof u?.username !== 'string' || u.username === '') return undefined;
  const extra = typeof u.extra === 'object' && u.extra !== null && !Array.isArray(u.extra)
    ? Object.fromEntries(Object.entries(u.extra).filter((e): e is [string, string[]] => isStringArray(e[1])))
    : undefined;
  return {
    username: u.username,
    ...(typeof u.uid === 'string' && u.uid ? { uid: u.uid } : {}),
    ...(isStringArray(u.groups) ? { groups: u.groups } : {}),
    ...(extra && Object.keys(extra).length ? { extra } : {}),
  };
}

/** Where the targets can write: every namespace, or the listed ones (minus the excluded), in list order. */
export function writeScope(targets: ResourceDistributionTargets | undefined): { everywhere: boolean; namespaces: string[] } {
  const t = targets ?? {};
  const selector = Object.keys(t.namespaceLabelSelector?.matchLabels ?? {}).length > 0 || (t.namespaceLabelSelector?.matchExpressions?.length ?? 0) > 0;
  const excluded = new Set((t.excludedNamespaces?.list ?? []).map((n) => n.name));
  const namespaces = [...new Set((t.includedNamespaces?.list ?? []).map((n) => n.name).filter((n) => n && !excluded.has(n)))];
  return { everywhere: !!t.allNamespaces || selector, namespaces };
}

/**
 * Why the user may not distribute `resource` (`secrets` or `configmaps`) to these targets, or null when they may.
 * Namespaces are checked in list order and the first refused one is named.
 */
export async function writeRefusal(canWrite: CanWrite, user: RequestUser | undefined, resource: string,
  targets: ResourceDistributionTargets | undefined, source?: string): Promise<string | null> {
  const scope = writeScope(targets);
  if (!scope.everywhere && scope.namespaces.length === 0) return null;
  if (!user) return 'the request names no user, so its right to write the distributed resource cannot be checked';
  const who = `user "${user.username}"`;
  if (scope.everywhere) {
    for (const verb of VERBS) {
      if (!(await canWrite(user, verb, resource, '', source))) {
        return `${who} may not ${verb} ${resource} in every namespace, which allNamespaces or namespaceLabelSelector can reach ` +
          '(a ResourceDistribution writes only where its author may; list the namespaces in includedNamespaces instead)';
      }
    }
    return null;
  }
  if (scope.namespaces.length > MAX_CHECKED_NAMESPACES) {
    return `spec.targets.includedNamespaces lists ${scope.namespaces.length} namespaces; at most ${MAX_CHECKED_NAMESPACES} are checked per ` +
      'request (use allNamespaces or namespaceLabelSelector, which need the right in every namespace)';
  }
  const checks = scope.namespaces.flatMap((ns) => VERBS.map((verb) => ({ ns, verb })));
  const results: boolean[] = [];
  for (let i = 0; i < checks.length; i += CHECK_CONCURRENCY) {
    const batch = checks.slice(i, i + CHECK_CONCURRENCY);
    results.push(...(await Promise.all(batch.map((c) => canWrite(user, c.verb, resource, c.ns, source)))));
    const refused = results.findIndex((ok) => !ok);
    if (refused >= 0) {
      const c = checks[refused]!;
      return `${who} may not ${c.verb} ${resource} in namespace "${c.ns}" (a ResourceDistribution writes only where its author may)`;
    }
  }
  return null;
}

/**
 * `canWrite` with its answers kept for `ttlMs` per user, verb, resource and namespace, so a burst of reviews by one
 * user costs one SubjectAccessReview per namespace. At most `maxEntries` answers are kept (the oldest go first);
 * failures are not kept.
 */
export function cachedCanWrite(inner: CanWrite, o: { now: () => number; ttlMs?: number; maxEntries?: number }): CanWrite {
  const ttlMs = o.ttlMs ?? 10_000;
  const maxEntries = o.maxEntries ?? 10_000;
  const answers = new Map<string, { at: number; allowed: boolean }>();
  return async (user, verb, resource, namespace, source) => {
    const key = JSON.stringify([user.username, user.uid ?? '', [...(user.groups ?? [])].sort(),
      Object.entries(user.extra ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)), verb, resource, namespace]);
    const hit = answers.get(key);
    if (hit && o.now() - hit.at < ttlMs) return hit.allowed;
    const allowed = await inner(user, verb, resource, namespace, source);
    answers.delete(key);
    answers.set(key, { at: o.now(), allowed });
    while (answers.size > maxEntries) answers.delete(answers.keys().next().value as string);
    return allowed;
  };
}
