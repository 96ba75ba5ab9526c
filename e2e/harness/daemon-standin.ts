// Plays kruise-daemon's part for NodeImages (spec/daemon-and-controllers.md §2.4): the test decides how a pull ends
// and this writes the NodeImage status through the status subresource, as the daemon would.
import { getJson, kubectlOk } from './kube.js';

interface TagStatus { tag: string; phase: string; version: number; progress?: number; startTime?: string; completionTime?: string; message?: string }
interface NodeImageJson {
  spec?: { images?: Record<string, { tags?: { tag: string; version?: number }[] }> };
  status?: { imageStatuses?: Record<string, { tags: TagStatus[] }>; waiting?: number };
}

const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * Reports `phase` for image:tag on the node's NodeImage, for the tag version the spec holds now, with the counters
 * recomputed as the daemon does. `completedAgoSeconds` backdates completionTime (for TTL tests).
 */
export function reportPull(node: string, image: string, tag: string, phase: 'Pulling' | 'Succeeded' | 'Failed', o: { completedAgoSeconds?: number; message?: string } = {}): void {
  const ni = getJson<NodeImageJson>(['nodeimage', node]);
  const specTag = ni.spec?.images?.[image]?.tags?.find((t) => t.tag === tag);
  if (!specTag) throw new Error(`NodeImage ${node} has no spec tag ${image}:${tag}`);
  const statuses = structuredClone(ni.status?.imageStatuses ?? {});
  const entry: TagStatus = { tag, phase, version: specTag.version ?? 0, startTime: now() };
  if (phase !== 'Pulling') {
    entry.completionTime = new Date(Date.now() - (o.completedAgoSeconds ?? 0) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    entry.progress = phase === 'Succeeded' ? 100 : 0;
  }
  if (o.message) entry.message = o.message;
  const tags = (statuses[image]?.tags ?? []).filter((t) => t.tag !== tag);
  statuses[image] = { tags: [...tags, entry].sort((a, b) => (a.tag < b.tag ? -1 : 1)) };
  let desired = 0, pulling = 0, succeeded = 0, failed = 0;
  for (const img of Object.values(ni.spec?.images ?? {})) desired += img.tags?.length ?? 0;
  for (const s of Object.values(statuses)) for (const t of s.tags) {
    if (t.phase === 'Pulling') pulling++; else if (t.phase === 'Succeeded') succeeded++; else if (t.phase === 'Failed') failed++;
  }
  const status = { desired, pulling, succeeded, failed, waiting: 0, imageStatuses: statuses };
  kubectlOk(['patch', 'nodeimage', node, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
}
