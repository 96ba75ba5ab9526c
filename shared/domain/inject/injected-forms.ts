// The injected forms of one SidecarSet container, remembered per SidecarSet generation. What a sidecar takes from the
// pod (transferred envs, shared mounts and the envs their subPathExpr use) is usually the same for every pod of a
// workload, and then so is the injected container: the same deep-frozen object is handed to each of those pods, with
// no per-pod copy, and the patch encoder serialises it once (shared/domain/frozen-json.ts) instead of per review.
import type { Volume } from '../../api/meta.js';
import type { SidecarContainer } from '../../api/sidecarset.js';
import { deepFreeze } from '../frozen-json.js';
import { cloneJson } from './clone.js';

/** Forms kept per container; the oldest goes first. Workloads sharing a SidecarSet rarely differ in what it takes. */
const MAX_FORMS = 16;
/**
 * After this many misses, a container whose forms are mostly new (a shared mount named per pod, such as a projected
 * service-account token `kube-api-access-<random>`) stops being remembered: every form would be built once and dropped.
 */
const GIVE_UP_AFTER = 64;

export class InjectedForms {
  /** The SidecarSet's container, deep-copied and frozen: what every injected form shares. */
  readonly source: SidecarContainer;
  /** The SidecarSet volumes (frozen copies) that the container's own mounts, then its devices, use, in that order. */
  readonly volumes: readonly Volume[];
  private readonly forms = new Map<string, SidecarContainer>();
  private hits = 0;
  private misses = 0;

  constructor(original: SidecarContainer, volumesByName: ReadonlyMap<string, Volume>) {
    this.source = deepFreeze(cloneJson(original));
    // v1.8 dereferences the volume unchecked (validation guarantees it); skipping a missing one is HEAD's behaviour.
    this.volumes = [...(this.source.volumeMounts ?? []), ...(this.source.volumeDevices ?? [])].flatMap((m) => volumesByName.get(m.name) ?? []);
  }

  /** False once most forms turned out new: then the caller builds per pod, as if nothing were remembered. */
  get remembering(): boolean {
    return this.misses <= GIVE_UP_AFTER || this.hits >= this.misses;
  }

  /** The remembered form for `key` (the JSON of what the sidecar takes from the pod), if any. */
  lookup(key: string): SidecarContainer | undefined {
    const form = this.forms.get(key);
    if (form) this.hits++;
    else this.misses++;
    return form;
  }

  /** Freezes `form` (a decorated sidecar holding only copies of the pod's parts) and remembers it for `key`. */
  remember(key: string, form: SidecarContainer): SidecarContainer {
    deepFreeze(form);
    if (this.forms.size >= MAX_FORMS) this.forms.delete(this.forms.keys().next().value!);
    this.forms.set(key, form);
    return form;
  }
}
