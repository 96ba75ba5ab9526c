// Which revision of a matched SidecarSet a new pod gets (spec/webhooks.md §2.3 step 3).
import type { ControllerRevisionLike } from '../../api/controller-revision.js';
import type { Pod } from '../../api/meta.js';
import type { SidecarSet, SidecarSetSpec } from '../../api/sidecarset.js';
import { SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation } from '../../api/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';
import { sidecarSetHash, sidecarSetHashWithoutImage } from '../sidecarset-hash.js';
import { REVISION_SPEC_FIELDS } from '../sidecarset-revision.js';
import type { InjectionContext } from './context.js';
import { selectorMatches } from './match.js';


function revisionSpec(rev: ControllerRevisionLike): Record<string, unknown> | undefined {
  let data = rev.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return undefined;
    }
  }
  const spec = (data as { spec?: unknown } | null)?.spec;
  return typeof spec === 'object' && spec !== null && !Array.isArray(spec) ? (spec as Record<string, unknown>) : undefined;
}

/**
 * The SidecarSet as it was at `rev`. The stored patch carries `$patch: replace` on spec, so the restored spec holds only
 * the stored fields — enough for injection, which has already matched the pod against the current selector. Hash
 * annotations come from the revision (recomputed when it has none); status.latestRevision becomes the revision name.
 */
export function restoreRevision(set: SidecarSet, rev: ControllerRevisionLike): SidecarSet {
  const stored = revisionSpec(rev);
  if (!stored) {
    throw new AdmissionDeniedError(`ControllerRevision ${rev.metadata.name} of sidecarset ${set.metadata?.name} has no spec in its data; it cannot be restored`, 400);
  }
  const spec: SidecarSetSpec = {};
  for (const f of REVISION_SPEC_FIELDS) if (stored[f] !== undefined && stored[f] !== null) (spec as Record<string, unknown>)[f] = structuredClone(stored[f]);
  const restored: SidecarSet = { ...structuredClone(set), spec };
  const annotations = { ...(set.metadata?.annotations ?? {}) };
  annotations[SidecarSetHashAnnotation] = rev.metadata.annotations?.[SidecarSetHashAnnotation] || sidecarSetHash(restored);
  annotations[SidecarSetHashWithoutImageAnnotation] =
    rev.metadata.annotations?.[SidecarSetHashWithoutImageAnnotation] || sidecarSetHashWithoutImage(restored);
  restored.metadata = { ...restored.metadata, annotations };
  restored.status = { matchedPods: 0, updatedPods: 0, readyPods: 0, ...restored.status, latestRevision: rev.metadata.name };
  return restored;
}

function findRevision(set: SidecarSet, ctx: InjectionContext): ControllerRevisionLike {
  const info = set.spec!.injectionStrategy!.revision!;
  const name = set.metadata?.name ?? '';
  let found: ControllerRevisionLike | undefined;
  // A set revisionName wins even when empty (upstream then fails its Get), as in history_control getControllerRevision.
  if (info.revisionName != null) found = info.revisionName ? ctx.revisions.byName(info.revisionName) : undefined;
  else {
    // history.SortControllerRevisions: highest revision last, ties broken by name.
    for (const r of ctx.revisions.byCustomVersion(name, info.customVersion!)) {
      if (!found || r.revision > found.revision || (r.revision === found.revision && r.metadata.name > found.metadata.name)) found = r;
    }
  }
  if (!found) {
    const wanted = info.revisionName != null ? `revisionName "${info.revisionName}"` : `customVersion "${info.customVersion}"`;
    throw new AdmissionDeniedError(
      `sidecarset ${name} injectionStrategy.revision ${wanted}: no such ControllerRevision; pods it selects cannot be created until the revision exists or injectionStrategy.revision is removed`,
      403,
    );
  }
  return found;
}

/** "P%" → P/100, like kruise's ParsePercentageAsFloat64. */
function percent(set: SidecarSet, value: string): number {
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)%$/.exec(value);
  if (!m) {
    throw new AdmissionDeniedError(`sidecarset ${set.metadata?.name} updateStrategy.partition ${JSON.stringify(value)} is not a percentage like "20%"; fix the SidecarSet`, 400);
  }
  return Number(m[1]) / 100;
}

/**
 * The SidecarSet to inject into `pod` on CREATE: the current one unless `injectionStrategy.revision` names a historical
 * revision. The historical revision is always loaded first (a missing one refuses the pod even if the latest would win),
 * then: upgrades paused → historical; policy Partial → historical for pods outside `updateStrategy.selector`, otherwise
 * historical with probability partition% (integer/absent partition → latest); policy Always → historical.
 */
export function chooseRevision(set: SidecarSet, pod: Pod, ctx: InjectionContext): SidecarSet {
  const info = set.spec?.injectionStrategy?.revision;
  if (!info || (info.revisionName == null && info.customVersion == null)) return set;
  const historical = restoreRevision(set, findRevision(set, ctx));
  const strategy = set.spec?.updateStrategy ?? {};
  if (strategy.paused) return historical;
  if (info.policy !== 'Partial') return historical;
  if (strategy.selector && !selectorMatches(set, 'spec.updateStrategy.selector', strategy.selector, pod.metadata?.labels)) return historical;
  const partition = strategy.partition;
  if (partition === undefined || typeof partition === 'number') return set;
  return ctx.random() <= percent(set, partition) ? historical : set;
}
