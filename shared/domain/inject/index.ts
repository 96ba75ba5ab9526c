// SidecarSet injection into a pod being created, as one pure function (spec/webhooks.md §2).
import type { Pod } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import { withoutCanaryBases } from '../sidecarset-canary.js';
import { byteOrder } from './annotations.js';
import { buildSidecars } from './build-sidecars.js';
import { podShell } from './clone.js';
import type { InjectionContext } from './context.js';
import { compiledMatch, skipReason, type CompiledMatch } from './match.js';
import { mergeByName, mergeContainers, mergeSecrets, sortByName } from './merge.js';
import { applyPatchPodMetadata } from './pod-metadata.js';
import { chooseRevision } from './revision.js';

export type { InjectionContext } from './context.js';

/** Why injection is not attempted at all (spec §2.2), or null. */
function podSkipReason(pod: Pod, ctx: InjectionContext): string | null {
  // UPDATE reaches no injection upstream ("pod availability changed" is always false in the community code).
  if (ctx.operation !== 'CREATE') return `operation ${ctx.operation}`;
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return `pod phase ${phase}`;
  if (pod.metadata?.deletionTimestamp) return 'pod is being deleted';
  return null;
}

const setName = (s: SidecarSet) => s.metadata?.name ?? '';

/** The SidecarSets in byte order of name; the caches already hand them sorted, so a linear check usually suffices. */
function sortedByName(sets: readonly SidecarSet[]): readonly SidecarSet[] {
  for (let i = 1; i < sets.length; i++) {
    if (byteOrder(setName(sets[i - 1]!), setName(sets[i]!)) > 0) return [...sets].sort((a, b) => byteOrder(setName(a), setName(b)));
  }
  return sets;
}

interface PreparedSets {
  sorted: readonly SidecarSet[];
  matches: readonly CompiledMatch[];
}

// The caches hand out one frozen array until a SidecarSet changes; sorting and compiling it once serves every review
// until then (one lookup per review instead of one per SidecarSet). Arrays that are not frozen are prepared per call.
const preparedLists = new WeakMap<readonly SidecarSet[], PreparedSets>();

function prepare(sets: readonly SidecarSet[]): PreparedSets {
  const cached = preparedLists.get(sets);
  if (cached) return cached;
  const sorted = sortedByName(sets);
  const prepared = { sorted, matches: sorted.map(compiledMatch) };
  if (Object.isFrozen(sets)) preparedLists.set(sets, prepared);
  return prepared;
}

/** SidecarSets that apply to the pod, sorted by name (upstream: informer order), each at the revision to inject. */
export function matchedSidecarSets(pod: Pod, podNamespace: string, ctx: InjectionContext): SidecarSet[] {
  const { sorted, matches } = prepare(ctx.sidecarSets);
  const applying: SidecarSet[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const set = sorted[i]!;
    let match = matches[i]!;
    // A set without a resourceVersion (tests, CLI documents) may have been edited since: compile it again.
    if (match.resourceVersion === undefined || match.resourceVersion !== set.metadata?.resourceVersion) match = compiledMatch(set);
    if (skipReason(match, pod, podNamespace, ctx.namespaceLabels) === null) applying.push(set);
  }
  // Revisions only after every SidecarSet was matched: an invalid selector anywhere refuses the pod (400) before a
  // missing revision of an earlier set does (403). A matched canary then replaces its base (HEAD).
  return withoutCanaryBases(applying.map((s) => chooseRevision(s, pod, ctx)));
}

/**
 * Returns a new pod with the matching SidecarSets injected (the input is never modified). Applies patchPodMetadata
 * even when no container ends up injected. Throws AdmissionDeniedError (400/403) wherever upstream fails the request:
 * invalid selectors or partition, missing ControllerRevision, unparseable hash annotations, invalid merge-patch JSON.
 */
export function injectSidecars(input: Pod, ctx: InjectionContext): Pod {
  return injectSidecarsInto(podShell(input), ctx);
}

/**
 * injectSidecars on a pod shell the caller owns (see podShell): fields of the pod, its metadata and its spec are
 * assigned, nothing below them is written; returns it.
 */
export function injectSidecarsInto(pod: Pod, ctx: InjectionContext): Pod {
  if (podSkipReason(pod, ctx) !== null) return pod;
  const podNamespace = pod.metadata?.namespace || ctx.requestNamespace || 'default';
  const podRef = `${podNamespace}/${pod.metadata?.name || pod.metadata?.generateName || ''}`;
  const sets = matchedSidecarSets(pod, podNamespace, ctx);
  if (sets.length === 0) return pod;

  const metadata = (pod.metadata ??= {});
  const before = metadata.annotations ?? {};
  const patched = applyPatchPodMetadata(before, sets, podRef);
  if (patched !== before) metadata.annotations = patched;

  const built = buildSidecars(sets, pod, ctx.now, podRef);
  if (built.initContainers.length === 0 && built.containers.length === 0) return pod;

  const spec = (pod.spec ??= { containers: [] });
  if (built.initContainers.length > 0) spec.initContainers = mergeContainers(spec.initContainers ?? [], sortByName(built.initContainers));
  if (built.containers.length > 0) {
    const sidecars = ctx.sortSidecarContainersByName ? sortByName(built.containers) : built.containers;
    spec.containers = mergeContainers(spec.containers ?? [], sidecars);
  }
  if (built.volumes.length > 0) spec.volumes = mergeByName(spec.volumes ?? [], built.volumes);
  if (built.imagePullSecrets.length > 0 || spec.imagePullSecrets?.length) spec.imagePullSecrets = mergeSecrets(spec.imagePullSecrets ?? [], built.imagePullSecrets);
  metadata.annotations = { ...metadata.annotations, ...built.annotations };
  return pod;
}
