// When a Node gets its NodeImage, and which Node changes concern the NodeImage controller
// (spec/daemon-and-controllers.md §2.3, "Node handler" and reconcile steps 1–2).
import type { V1Node } from '@kubernetes/client-node';
import type { NodeImage } from '../../shared/api/node-image.js';
import { parseMetaTime } from '../../shared/kube/meta-time.js';

/** Nodes of virtual kubelets run no kruise-daemon, so they get no NodeImage. */
export const VirtualKubeletLabel = { key: 'type', value: 'virtual-kubelet' } as const;

export type Creation =
  | { kind: 'create' }
  | { kind: 'wait'; ms: number }
  | { kind: 'skip'; reason: string };

/** The Node's Ready condition when it is True, else undefined. */
function readySince(node: V1Node): { since: number | undefined } | undefined {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') return undefined;
  return { since: parseMetaTime(ready.lastTransitionTime as unknown as string | undefined) };
}

const isVirtual = (node: V1Node) => node.metadata?.labels?.[VirtualKubeletLabel.key] === VirtualKubeletLabel.value;

/**
 * Whether to create the NodeImage of `node` now. Upstream waits until the node has been Ready for
 * `--nodeimage-creation-delay` (30 s), so nodes that flap at registration do not get a NodeImage the daemon on
 * them may never serve.
 */
export function nodeImageCreation(node: V1Node, now: number, delayMs: number): Creation {
  if (isVirtual(node)) return { kind: 'skip', reason: 'virtual-kubelet node' };
  const ready = readySince(node);
  if (!ready) return { kind: 'skip', reason: 'node not Ready' };
  const left = (ready.since ?? 0) + delayMs - now;
  return left > 0 ? { kind: 'wait', ms: left } : { kind: 'create' };
}

const sameLabels = (a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean => {
  const ak = Object.keys(a ?? {});
  if (ak.length !== Object.keys(b ?? {}).length) return false;
  return ak.every((k) => Object.hasOwn(b ?? {}, k) && b![k] === a![k]);
};

/** The NodeImage's labels are an exact copy of its Node's (job label selectors read them). */
export function labelsInSync(node: V1Node, ni: NodeImage): boolean {
  return sameLabels(node.metadata?.labels, ni.metadata?.labels);
}

/**
 * Whether a Node change needs a reconcile of its NodeImage: the node went away (and has one), is Ready without one,
 * or its labels drifted from it. Heartbeat-only status updates need nothing, which matters with thousands of nodes.
 * `node` is undefined when it was deleted.
 */
export function nodeChangeMatters(node: V1Node | undefined, ni: NodeImage | undefined): boolean {
  if (!node || node.metadata?.deletionTimestamp) return ni !== undefined;
  if (!ni) return !isVirtual(node) && readySince(node) !== undefined;
  return !labelsInSync(node, ni);
}
