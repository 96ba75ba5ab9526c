// Which image tags a NodeImage update changed (spec/openkruise-v1.9.md §7.3, openkruise/kruise#2483). Many jobs pulling
// different tags of one image share every node's NodeImage entry for that image; waking all of them on every daemon
// report or TTL expiry of a sibling's tag was upstream's reconcile storm. An update is reduced to, per image name,
// either the whole image (its pullSecrets or sandboxConfig changed, or its spec or status entry went away) or the
// set of tags whose spec or status entry was added, removed or changed. Pure.
import { isDeepStrictEqual } from 'node:util';
import type { NodeImage } from '../../shared/api/node-image.js';

/** Per image name: `'all'` when the image changed as a whole, else the tags that changed. */
export type ChangedTags = Map<string, 'all' | Set<string>>;

interface Tagged { tag: string }

/** Tags present on one side only, or on both but not deep-equal (a tag is compared whole). */
function diffTags(before: readonly Tagged[] | undefined, after: readonly Tagged[] | undefined): Set<string> {
  const out = new Set<string>();
  const old = new Map((before ?? []).map((t) => [t.tag, t] as const));
  const now = new Map((after ?? []).map((t) => [t.tag, t] as const));
  for (const [tag, t] of now) if (!isDeepStrictEqual(old.get(tag), t)) out.add(tag);
  for (const tag of old.keys()) if (!now.has(tag)) out.add(tag);
  return out;
}

function add(into: ChangedTags, image: string, tags: 'all' | Set<string>): void {
  const have = into.get(image);
  if (have === 'all' || tags === 'all') { into.set(image, 'all'); return; }
  if (tags.size === 0) return;
  into.set(image, have ? new Set([...have, ...tags]) : tags);
}

/** Upstream getChangedSpecTags: spec tags changed, or the whole image (pullSecrets, sandboxConfig, removed). */
export function changedSpecTags(before: NodeImage | undefined, after: NodeImage | undefined, into: ChangedTags = new Map()): ChangedTags {
  const old = before?.spec?.images ?? {};
  const now = after?.spec?.images ?? {};
  for (const [name, image] of Object.entries(now)) {
    const prev = old[name];
    if (prev && (!isDeepStrictEqual(prev.pullSecrets, image.pullSecrets) || !isDeepStrictEqual(prev.sandboxConfig, image.sandboxConfig))) {
      add(into, name, 'all');
    } else {
      add(into, name, diffTags(prev?.tags, image.tags));
    }
  }
  for (const name of Object.keys(old)) if (!(name in now)) add(into, name, 'all');
  return into;
}

/** Upstream getChangedStatusTags: status tags changed, or the whole image when its status entry went away. */
export function changedStatusTags(before: NodeImage | undefined, after: NodeImage | undefined, into: ChangedTags = new Map()): ChangedTags {
  const old = before?.status?.imageStatuses ?? {};
  const now = after?.status?.imageStatuses ?? {};
  for (const [name, image] of Object.entries(now)) add(into, name, diffTags(old[name]?.tags, image.tags));
  for (const name of Object.keys(old)) if (!(name in now)) add(into, name, 'all');
  return into;
}

/** Spec and status changes of one update together. */
export function changedTags(before: NodeImage | undefined, after: NodeImage | undefined): ChangedTags {
  return changedStatusTags(before, after, changedSpecTags(before, after));
}

/** Whether a job pulling `image` is concerned by the change. */
export function concerns(changed: ChangedTags, image: { name: string; tag: string }): boolean {
  const c = changed.get(image.name);
  return c === 'all' || (c !== undefined && c.has(image.tag));
}
