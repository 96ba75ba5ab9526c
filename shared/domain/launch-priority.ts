// Container launch priority, the /mutate-pod step after SidecarSet injection (spec/webhooks.md §4.1).
import type { Container, Pod } from '../api/meta.js';
import { AdmissionDeniedError } from '../errors.js';
import { podShell } from './inject/clone.js';

export const ContainerLaunchPriorityAnnotation = 'apps.kruise.io/container-launch-priority';
export const ContainerLaunchOrdered = 'Ordered';
export const ContainerPriorityEnv = 'KRUISE_CONTAINER_PRIORITY';
export const ContainerBarrierEnv = 'KRUISE_CONTAINER_BARRIER';

/** Kubernetes' SimpleNameGenerator: generateName cut to 58 characters plus 5 from this alphabet. */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_GENERATE_NAME = 58;

export function generateName(base: string, random: () => number): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[Math.floor(random() * NAME_ALPHABET.length)];
  return base.slice(0, MAX_GENERATE_NAME) + suffix;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.Atoi on a 64-bit platform: optional sign, decimal digits, in int64 range. */
function parsePriority(value: string | undefined, container: string): bigint {
  const v = value ?? '';
  const n = /^[+-]?\d+$/.test(v) ? BigInt(v) : undefined;
  if (n === undefined || n < INT64_MIN || n > INT64_MAX) {
    throw new AdmissionDeniedError(
      `container ${container} env ${ContainerPriorityEnv}=${JSON.stringify(v)} is not an integer; set a literal integer value such as "1" or remove the env`,
      400,
    );
  }
  return n;
}

/** Priorities from KRUISE_CONTAINER_PRIORITY (last occurrence wins, absent = 0), or null when they decide nothing. */
function envPriorities(containers: Container[]): bigint[] | null {
  let anyNonZero = false;
  const priorities = containers.map((c) => {
    let p = 0n;
    for (const e of c.env ?? []) {
      if (e.name !== ContainerPriorityEnv) continue;
      p = parsePriority(e.value, c.name);
      if (p !== 0n) anyNonZero = true;
    }
    return p;
  });
  if (!anyNonZero || priorities.every((p) => p === priorities[0])) return null;
  return priorities;
}

/**
 * Adds the KRUISE_CONTAINER_BARRIER env (configMapKeyRef `<pod>-barrier` / `p_<priority>`) to every container when
 * the pod asks for an ordered start: annotation `Ordered` (priority of container i = -i) or differing
 * KRUISE_CONTAINER_PRIORITY envs. A pod with only generateName gets its name fixed now, since the barrier ConfigMap
 * name depends on it. Pods with a single container are left alone. Returns a new pod.
 */
export function applyLaunchPriority(input: Pod, ctx: { random: () => number }): Pod {
  return applyLaunchPriorityTo(podShell(input), ctx);
}

/**
 * applyLaunchPriority on a pod shell the caller owns (see podShell): its metadata and spec fields are assigned, and
 * each container is replaced by a copy with the barrier env, never edited; returns it.
 */
export function applyLaunchPriorityTo(pod: Pod, ctx: { random: () => number }): Pod {
  const containers = pod.spec?.containers ?? [];
  if (containers.length === 1) return pod;
  const priorities =
    pod.metadata?.annotations?.[ContainerLaunchPriorityAnnotation] === ContainerLaunchOrdered
      ? containers.map((_, i) => BigInt(-i))
      : envPriorities(containers);
  if (priorities === null) return pod;
  const metadata = (pod.metadata ??= {});
  if (!metadata.name && metadata.generateName) metadata.name = generateName(metadata.generateName, ctx.random);
  pod.spec!.containers = containers.map((c, i) => ({
    ...c,
    env: [...(c.env ?? []), { name: ContainerBarrierEnv, valueFrom: { configMapKeyRef: { name: `${metadata.name ?? ''}-barrier`, key: `p_${priorities[i]}` } } }],
  }));
  return pod;
}
