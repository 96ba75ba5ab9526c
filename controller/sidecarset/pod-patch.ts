// The pod write of an in-place update as a strategic-merge patch: what a mutation changed among the fields the
// SidecarSet controller may change in place (annotations, labels, container images), plus the resourceVersion it
// read, so a pod changed since is refused with a conflict as an Update would be. The cache keeps pods without most of
// their spec (controller/cached-pod.ts), so the whole object could not be written back.
import type { Container, Pod } from '../../shared/api/meta.js';

type StringMap = Record<string, string>;

/** Keys whose value differs, with null for the removed ones (merge-patch deletion). */
function mapDiff(before: StringMap | undefined, after: StringMap | undefined): Record<string, string | null> | undefined {
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(after ?? {})) if (before?.[k] !== v) out[k] = v;
  for (const k of Object.keys(before ?? {})) if (!after || !Object.hasOwn(after, k)) out[k] = null;
  return Object.keys(out).length ? out : undefined;
}

/** `{name, image}` of each container whose image changed, matched by name (the strategic-merge key). */
function imageDiff(before: readonly Container[] | undefined, after: readonly Container[] | undefined): { name: string; image: string }[] | undefined {
  const old = new Map((before ?? []).map((c) => [c.name, c.image]));
  const out = (after ?? []).filter((c) => old.has(c.name) && old.get(c.name) !== c.image).map((c) => ({ name: c.name, image: c.image ?? '' }));
  return out.length ? out : undefined;
}

/** The patch from `before` to `after` (a mutated copy of it), or null when nothing changed. */
export function podUpdatePatch(before: Pod, after: Pod): object | null {
  const annotations = mapDiff(before.metadata?.annotations, after.metadata?.annotations);
  const labels = mapDiff(before.metadata?.labels, after.metadata?.labels);
  const containers = imageDiff(before.spec?.containers, after.spec?.containers);
  const initContainers = imageDiff(before.spec?.initContainers, after.spec?.initContainers);
  if (!annotations && !labels && !containers && !initContainers) return null;
  return {
    metadata: { resourceVersion: before.metadata?.resourceVersion, ...(annotations && { annotations }), ...(labels && { labels }) },
    ...((containers || initContainers) && { spec: { ...(containers && { containers }), ...(initContainers && { initContainers }) } }),
  };
}
