// PodProbeMarker validation, as OpenKruise v1.9.0's /validate-apps-kruise-io-podprobemarker
// (spec/node-probes-and-sidecar-lifecycle.md §3.2-§3.3): the paths as upstream builds them (`spec.probe…`,
// `spec.markerPolicy…`, no index), the early returns where upstream returns the list collected so far. The probe
// handler rules are upstream's own, not core/v1's: `grpc` is not a handler here, `host` is refused, a scheme is required.
import { isDeepStrictEqual } from 'node:util';
import type { LabelSelector } from '../../api/meta.js';
import type { PodProbeMarker, ProbeMarkerPolicy } from '../../api/pod-probe-marker.js';
import type { Violation } from '../../errors.js';
import { goUrlParses } from '../go-url.js';
import { forbidden, invalid, invalidEach, isSet, list, notSupported, num, obj, required, str, type Json } from './field-errors.js';
import { isHTTPHeaderName, isValidPortName } from './names.js';
import { validateTemplateAnnotations } from './pod-template.js';
import { labelSelectorConversionError, validateLabelName, validateLabelSelector, validateLabels } from './selector-validation.js';

/** Probe names upstream reserves (`k8sNativePodConditions`): the pod's own condition types and kruise's. */
const RESERVED_PROBE_NAMES = new Set(['PodScheduled', 'Initialized', 'Ready', 'ContainersReady', 'KruisePodReady', 'InPlaceUpdateReady']);
const SCHEMES = ['HTTP', 'HTTPS'];
const NON_NEGATIVE = 'must be greater than or equal to 0';

export function validatePodProbeMarker(obj: PodProbeMarker, old: PodProbeMarker | undefined): Violation[] {
  const out = validateSpec(obj);
  // Absent and empty selectors differ here, as reflect.DeepEqual has them; Go drops a JSON null like an absent field.
  if (old && !isDeepStrictEqual(dropNulls(old.spec?.selector), dropNulls(obj.spec?.selector))) {
    out.push(invalid('selector', obj.spec?.selector ?? null, 'selector must be immutable'));
  }
  return out;
}

function validateSpec(ppm: PodProbeMarker): Violation[] {
  const spec = ppm.spec ?? {};
  const out: Violation[] = [];
  if (!spec.selector) out.push(invalid('spec.selector', null, 'empty Selector is not valid for PodProbeMarker.'));
  else out.push(...validateSelector(spec.selector));
  const probes = spec.probes ?? [];
  if (probes.length === 0) {
    out.push(invalid('spec.probes', spec.probes ?? null, 'empty probes is not valid for PodProbeMarker.'));
    return out;
  }
  const names = new Set<string>();
  const conditionTypes = new Set<string>();
  for (const p of probes) {
    const name = p.name ?? '';
    const stop = (value: unknown, detail: string) => [...out, invalid('spec.probes', value, detail)];
    if (name.includes('#')) return stop(name, "probe name can't contains '#'.");
    if (name === '') return stop(name, "probe name can't be empty in PodProbeMarker.");
    if ((p.containerName ?? '') === '') return stop('', "probe containerName can't be empty in PodProbeMarker.");
    if (RESERVED_PROBE_NAMES.has(name)) return stop(name, `probe name can't be ${name}`);
    if (names.has(name)) return stop(name, 'probe name must be unique in PodProbeMarker.');
    names.add(name);
    out.push(...validateProbe(obj(p.probe) ?? {}));
    const conditionType = p.podConditionType ?? '';
    const policies = p.markerPolicy ?? [];
    if (conditionType === '' && policies.length === 0) return stop(p, 'podConditionType and markerPolicy cannot be empty at the same time');
    if (conditionType !== '') {
      if (conditionTypes.has(conditionType)) return stop(conditionType, `podConditionType ${conditionType} must be unique in podProbeMarker`);
      conditionTypes.add(conditionType);
      out.push(...validateLabelName(conditionType, 'spec'));
    }
    const states = new Set<string>();
    for (const policy of policies) {
      const state = policy.state ?? '';
      if (states.has(state)) return [...out, invalid('spec.markerPolicy', state, 'marker policy state must be unique.')];
      states.add(state);
      out.push(...validatePolicy(policy));
    }
  }
  return out;
}

function validateSelector(selector: LabelSelector): Violation[] {
  const out = validateLabelSelector(selector, 'spec.selector');
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    out.push(invalid('spec.selector', selector, 'empty selector is not valid for podProbeMarker.'));
  }
  if (labelSelectorConversionError(selector) !== undefined) out.push(invalid('spec.selector.selector', selector, ''));
  return out;
}

function validateProbe(p: Json): Violation[] {
  const out = validateHandler(p);
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    if (num(p[k]) < 0) out.push(invalid(`spec.probe.${k}`, num(p[k]), NON_NEGATIVE));
  }
  return out;
}

/** exec, httpGet, tcpSocket in that order; a second one is Forbidden; `grpc` counts for nothing (§11). */
function validateHandler(p: Json): Violation[] {
  const out: Violation[] = [];
  let count = 0;
  for (const kind of ['exec', 'httpGet', 'tcpSocket'] as const) {
    if (!isSet(p[kind])) continue;
    const f = `spec.probe.${kind}`;
    if (count++ > 0) { out.push(forbidden(f, 'may not specify more than 1 handler type')); continue; }
    const a = obj(p[kind]) ?? {};
    if (kind === 'exec') { if (list(a.command).length === 0) out.push(required(`${f}.command`)); }
    else if (kind === 'httpGet') out.push(...validateHTTPGet(a, f));
    else {
      if (str(a.host) !== '') out.push(invalid(`${f}.host`, a.host, 'host field in probes is not allowed'));
      out.push(...validatePort(a.port, `${f}.port`));
    }
  }
  if (count === 0) out.push(required('spec.probe', 'must specify a handler type'));
  return out;
}

function validateHTTPGet(a: Json, f: string): Violation[] {
  const out: Violation[] = [];
  const path = str(a.path);
  if (path === '') out.push(required(`${f}.path`));
  if (str(a.host) !== '') out.push(invalid(`${f}.host`, a.host, 'host field in probes is not allowed'));
  if (!goUrlParses(path)) out.push(invalid(`${f}.path`, path, 'must be a valid URL path'));
  out.push(...validatePort(a.port, `${f}.port`));
  const scheme = str(a.scheme);
  if (!SCHEMES.includes(scheme)) out.push(notSupported(`${f}.scheme`, scheme, SCHEMES));
  for (const header of list(a.httpHeaders)) {
    const name = str(obj(header)?.name);
    out.push(...invalidEach(`${f}.httpHeaders`, name, isHTTPHeaderName(name)));
  }
  return out;
}

/** IntOrString: a number must be 1-65535 (an absent port is 0), a string an IANA service name (one error per rule). */
function validatePort(port: unknown, f: string): Violation[] {
  if (typeof port === 'string') return invalidEach(f, port, isValidPortName(port));
  const n = num(port);
  return n >= 1 && n <= 65535 ? [] : [invalid(f, n, 'must be between 1 and 65535, inclusive')];
}

function validatePolicy(policy: ProbeMarkerPolicy): Violation[] {
  if (policy.state !== 'Succeeded' && policy.state !== 'Failed') {
    return [required('spec.markerPolicy.state', "marker policy state must be 'True' or 'False'")];
  }
  const labels = policy.labels ?? {};
  const annotations = policy.annotations ?? {};
  if (Object.keys(labels).length === 0 && Object.keys(annotations).length === 0) {
    return [required('spec.markerPolicy', "marker policy annotations or labels can't be both empty")];
  }
  return [...validateLabels(labels, 'spec.markerPolicy.labels'), ...validateTemplateAnnotations(annotations, 'spec.markerPolicy.annotations')];
}

/** The value as Go decodes it: a JSON null is the zero value (absent), so it compares equal to a missing field. */
function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, dropNulls(x)]));
}
