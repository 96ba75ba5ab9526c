// CloneSet defaulting as OpenKruise's mutating webhook applies it (spec/cloneset.md §1.4). The template defaults feed
// the revision hash, so they follow upstream's SetDefaultPodSpec exactly, then a Go decode/encode round trip.
import type { CloneSet, CloneSetSpec } from '../../api/cloneset.js';
import { GoJsonTypeError, goNormalize } from '../go-json.js';
import { defaultImagePullPolicy } from '../image-ref.js';
import { defaultFieldRef, defaultHttpGet, defaultProbe, roundUpResourceList } from '../sidecarset-defaults.js';
import { deepEqual } from '../validation/sidecarset-conflicts.js';
import { defaultVolume, type VolumeDefaultOptions } from '../volume-defaults.js';
import { podTemplateGoSchema } from './pod-template-go-schema.js';

type Json = Record<string, any>;

/**
 * A defaulted copy of `cs`. Template defaults apply on CREATE and, on UPDATE, only when the template differs from
 * `old`'s (upstream's rule, so an unrelated edit never rewrites a template written before a defaulting change).
 * Throws GoJsonTypeError / QuantityParseError where Go's decoder would refuse the object.
 */
export function defaultCloneSet(input: CloneSet, old?: CloneSet, opts: VolumeDefaultOptions = {}): CloneSet {
  const cs = structuredClone(input);
  const spec = (cs.spec ??= {} as CloneSetSpec);
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  spec.revisionHistoryLimit ??= 10;
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) strategy.type = 'ReCreate';
  if ((strategy.type === 'InPlaceIfPossible' || strategy.type === 'InPlaceOnly') && !strategy.inPlaceUpdateStrategy) strategy.inPlaceUpdateStrategy = {};
  strategy.partition ??= 0;
  strategy.maxUnavailable ??= '20%';
  strategy.maxSurge ??= 0;

  if (!old || !deepEqual(spec.template, old.spec?.template)) spec.template = defaultTemplate(spec.template as Json, opts) as CloneSetSpec['template'];
  if (Array.isArray(spec.volumeClaimTemplates)) {
    for (const v of listOf(spec.volumeClaimTemplates)) {
      v.status = { ...v.status, phase: v.status?.phase || 'Pending' };
      for (const list of [v.spec?.resources?.limits, v.spec?.resources?.requests, v.status.capacity]) roundUpResourceList(list);
    }
  }
  return cs;
}

/** SetDefaultPodSpec on a template, then its Go round trip (creationTimestamp: null left out of the stored object). */
export function defaultTemplate(template: Json | undefined, opts: VolumeDefaultOptions = {}): Json {
  const t = template ?? {};
  if (t.spec !== undefined && t.spec !== null && (typeof t.spec !== 'object' || Array.isArray(t.spec))) throw new GoJsonTypeError('spec.template.spec', 'PodSpec', t.spec);
  const spec = (t.spec ??= {});
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  if (!spec.schedulerName) spec.schedulerName = 'default-scheduler';
  for (const c of listOf(spec.containers)) defaultContainer(c, 'Always');
  for (const c of listOf(spec.initContainers)) defaultContainer(c, defaultImagePullPolicy(typeof c.image === 'string' ? c.image : ''));
  // Ephemeral containers get everything but SetDefaults_Container (no pull or termination-message defaults).
  for (const c of listOf(spec.ephemeralContainers)) defaultContainerParts(c);
  for (const v of listOf(spec.volumes)) defaultVolume(v, opts);
  roundUpResourceList(spec.overhead);
  const out = goNormalize(t, 'PodTemplateSpec', podTemplateGoSchema) as Json;
  if (out.metadata?.creationTimestamp === null) delete out.metadata.creationTimestamp;
  return out;
}

const listOf = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => !!x && typeof x === 'object') : []);

function defaultContainer(c: Json, pullPolicy: string): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = pullPolicy;
  if (!c.terminationMessagePath) c.terminationMessagePath = '/dev/termination-log';
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  defaultContainerParts(c);
}

/** SetDefaultPodSpec's per-container defaults; unlike a SidecarSet's containers, startupProbe is defaulted too. */
function defaultContainerParts(c: Json): void {
  for (const port of listOf(c.ports)) if (!port.protocol) port.protocol = 'TCP';
  for (const e of listOf(c.env)) defaultFieldRef(e.valueFrom?.fieldRef);
  for (const list of [c.resources?.limits, c.resources?.requests]) roundUpResourceList(list);
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) if (probe && typeof probe === 'object') defaultProbe(probe);
  for (const handler of [c.lifecycle?.postStart, c.lifecycle?.preStop]) defaultHttpGet(handler?.httpGet);
}
