// Kubernetes 1.32's ValidatePodTemplateSpec (pkg/apis/core/validation) as OpenKruise v1.9.0 runs it on a workload's
// template (CloneSet: pkg/webhook/cloneset/validating/validation.go, with DefaultPodValidationOptions): the template's
// labels and annotations (Kubernetes names their paths `<template>.labels` / `<template>.annotations`, without
// `metadata`), the pod-only annotations (mirror pod, seccomp, AppArmor), the pod spec, the seccomp and AppArmor
// annotations against their fields, and no ephemeral containers.
import type { Violation } from '../../errors.js';
import { forbidden, invalid, list, obj, str, tooLong, type Json } from './field-errors.js';
import { validateLocalDescendingPath } from './paths.js';
import { validateTolerations } from './pod-scheduling.js';
import { containersWithPath } from './pod-security.js';
import { validateTemplatePodSpec } from './pod-spec-full.js';
import { validateLabelName, validateLabels } from './selector-validation.js';

const TOTAL_ANNOTATION_BYTES = 256 * 1024;
const MIRROR = 'kubernetes.io/config.mirror';
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_CONTAINER = 'container.apparmor.security.beta.kubernetes.io/';
const TOLERATIONS = 'scheduler.alpha.kubernetes.io/tolerations';

/** encoding/json's error for a value that is not a JSON list of objects (the common cases; nested type errors aside). */
function tolerationsDecodeError(text: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    const c = text.trimStart()[0];
    return c === undefined || /[[{"\d\-tfn]/.test(c) ? 'unexpected end of JSON input' : `invalid character '${c}' looking for beginning of value`;
  }
  if (v === null || Array.isArray(v)) return undefined;
  const kind = typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;
  return `json: cannot unmarshal ${kind} into Go value of type []core.Toleration`;
}

/** apimachinery ValidateAnnotations: keys are qualified names (checked lower-cased), 256 KiB in all. */
export function validateTemplateAnnotations(annotations: Record<string, string>, f: string): Violation[] {
  const out: Violation[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    out.push(...validateLabelName(k.toLowerCase(), f));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > TOTAL_ANNOTATION_BYTES) out.push(tooLong(f, TOTAL_ANNOTATION_BYTES));
  return out;
}

function validateSeccompAnnotationValue(p: string, f: string): Violation[] {
  if (p === 'runtime/default' || p === 'docker/default' || p === 'unconfined') return [];
  if (p.startsWith('localhost/')) return validateLocalDescendingPath(p.slice('localhost/'.length), f);
  return [invalid(f, p, 'must be a valid seccomp profile')];
}

/**
 * ValidatePodSpecificAnnotations (AllowInvalidPodDeletionCost: the deletion cost is not checked). The deprecated
 * tolerations annotation is decoded as Go would, but type errors inside its list are not reported as Go's.
 */
function validatePodAnnotations(annotations: Record<string, string>, spec: Json, f: string): Violation[] {
  const out: Violation[] = [];
  if (MIRROR in annotations && !str(spec.nodeName)) out.push(invalid(`${f}[${MIRROR}]`, annotations[MIRROR], 'must set spec.nodeName if mirror pod annotation is set'));
  const tolerations = annotations[TOLERATIONS];
  if (tolerations) {
    const err = tolerationsDecodeError(tolerations);
    if (err) out.push(invalid(f, TOLERATIONS, err));
    else out.push(...validateTolerations(JSON.parse(tolerations) ?? [], `${f}.${TOLERATIONS}`));
  }
  if (SECCOMP_POD in annotations) out.push(...validateSeccompAnnotationValue(annotations[SECCOMP_POD]!, `${f}.${SECCOMP_POD}`));
  for (const [k, v] of Object.entries(annotations)) if (k.startsWith(SECCOMP_CONTAINER)) out.push(...validateSeccompAnnotationValue(v, `${f}.${k}`));
  const names = new Set(containersWithPath(spec, '').map(([c]) => str(c.name)));
  for (const [k, v] of Object.entries(annotations)) {
    if (!k.startsWith(APPARMOR_CONTAINER)) continue;
    const name = k.slice(APPARMOR_CONTAINER.length);
    if (!names.has(name)) out.push(invalid(`${f}[${k}]`, name, 'container not found'));
    if (v !== '' && v !== 'runtime/default' && v !== 'unconfined' && !v.startsWith('localhost/')) out.push(invalid(`${f}[${k}]`, v, `invalid AppArmor profile name: ${JSON.stringify(v)}`));
  }
  return out;
}

function seccompMismatch(annotation: string, profile: Json, f: string): Violation[] {
  const type = str(profile.type);
  const typeErr = [forbidden(`${f}.type`, 'seccomp type in annotation and field must match')];
  if (type === 'Unconfined') return annotation === 'unconfined' ? [] : typeErr;
  if (type === 'RuntimeDefault') return annotation === 'runtime/default' || annotation === 'docker/default' ? [] : typeErr;
  if (type === 'Localhost') {
    if (!annotation.startsWith('localhost/')) return typeErr;
    if (typeof profile.localhostProfile !== 'string' || annotation.slice('localhost/'.length) !== profile.localhostProfile) {
      return [forbidden(`${f}.localhostProfile`, 'seccomp profile in annotation and field must match')];
    }
  }
  return [];
}

function validateSeccompAnnotationsAndFields(annotations: Record<string, string>, spec: Json, f: string): Violation[] {
  const out: Violation[] = [];
  const podProfile = obj(obj(spec.securityContext)?.seccompProfile);
  if (podProfile && SECCOMP_POD in annotations) out.push(...seccompMismatch(annotations[SECCOMP_POD]!, podProfile, `${f}.securityContext.seccompProfile`));
  for (const [c, cf] of containersWithPath(spec, f)) {
    const p = obj(obj(c.securityContext)?.seccompProfile);
    const key = `${SECCOMP_CONTAINER}${str(c.name)}`;
    if (p && key in annotations) out.push(...seccompMismatch(annotations[key]!, p, `${cf}.securityContext.seccompProfile`));
  }
  return out;
}

function validateAppArmorAnnotationsAndFields(annotations: Record<string, string>, spec: Json, f: string): Violation[] {
  if (str(obj(spec.os)?.name) === 'windows') return [];
  const out: Violation[] = [];
  const podProfile = obj(obj(spec.securityContext)?.appArmorProfile);
  for (const [c, cf] of containersWithPath(spec, f)) {
    const profile = obj(obj(c.securityContext)?.appArmorProfile) ?? podProfile;
    const annotation = annotations[`${APPARMOR_CONTAINER}${str(c.name)}`];
    if (!profile || annotation === undefined) continue;
    const af = `${cf}.securityContext.appArmorProfile`;
    const type = str(profile.type);
    const typeErr = forbidden(`${af}.type`, 'apparmor type in annotation and field must match');
    if (type === 'Unconfined' && annotation !== 'unconfined') out.push(typeErr);
    else if (type === 'RuntimeDefault' && annotation !== 'runtime/default') out.push(typeErr);
    else if (type === 'Localhost') {
      if (!annotation.startsWith('localhost/')) out.push(typeErr);
      else if (typeof profile.localhostProfile !== 'string' || annotation.slice('localhost/'.length) !== profile.localhostProfile) {
        out.push(forbidden(`${af}.localhostProfile`, 'apparmor profile in annotation and field must match'));
      }
    }
  }
  return out;
}

/** ValidatePodTemplateSpec(template, f, DefaultPodValidationOptions). */
export function validatePodTemplateSpec(raw: unknown, f: string): Violation[] {
  const t = obj(raw) ?? {};
  const meta = obj(t.metadata) ?? {};
  const spec = obj(t.spec) ?? {};
  const annotations = (obj(meta.annotations) ?? {}) as Record<string, string>;
  return [
    ...validateLabels(obj(meta.labels) as Record<string, string> | undefined, `${f}.labels`),
    ...validateTemplateAnnotations(annotations, `${f}.annotations`),
    ...validatePodAnnotations(annotations, spec, `${f}.annotations`),
    ...validateTemplatePodSpec(spec, `${f}.spec`),
    ...validateSeccompAnnotationsAndFields(annotations, spec, `${f}.spec`),
    ...validateAppArmorAnnotationsAndFields(annotations, spec, `${f}.spec`),
    ...(list(spec.ephemeralContainers).length > 0 ? [forbidden(`${f}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template')] : []),
  ];
}
