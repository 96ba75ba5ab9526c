// File-projecting volume sources: secret, configMap, downwardAPI and projected (k8s core validation
// validateSecretVolumeSource, validateConfigMapVolumeSource, validateKeyToPath, validateDownwardAPIVolumeSource,
// validateProjectionSources). Duplicate target paths across a projected volume's sources are found with one set.
import type { Violation } from '../../../errors.js';
import { forbidden, invalid, isSet, list, num, obj, required, str, type Json } from '../field-errors.js';
import { validateObjectFieldSelector, validateResourceFieldSelector, volumeFieldPaths } from '../field-selectors.js';
import { validateLocalNonReservedPath } from '../paths.js';

const fileModeMsg = 'must be a number between 0 and 0777 (octal), both inclusive';
const badMode = (m: unknown): boolean => typeof m === 'number' && (m > 0o777 || m < 0);

function validateMode(s: Json, key: string, f: string): Violation[] {
  return badMode(s[key]) ? [invalid(`${f}.${key}`, s[key], fileModeMsg)] : [];
}

function validateKeyToPath(kp: Json, f: string): Violation[] {
  const out: Violation[] = [];
  if (str(kp.key) === '') out.push(required(`${f}.key`));
  if (str(kp.path) === '') out.push(required(`${f}.path`));
  out.push(...validateLocalNonReservedPath(str(kp.path), `${f}.path`));
  out.push(...validateMode(kp, 'mode', f));
  return out;
}

function validateItems(items: unknown, f: string): Violation[] {
  return list(items).flatMap((kp, i) => validateKeyToPath(obj(kp) ?? {}, `${f}.items[${i}]`));
}

export function validateSecretVolume(s: Json, f: string): Violation[] {
  return [...(str(s.secretName) === '' ? [required(`${f}.secretName`)] : []), ...validateMode(s, 'defaultMode', f), ...validateItems(s.items, f)];
}

export function validateConfigMapVolume(s: Json, f: string): Violation[] {
  return [...(str(s.name) === '' ? [required(`${f}.name`)] : []), ...validateMode(s, 'defaultMode', f), ...validateItems(s.items, f)];
}

/** One downwardAPI file; upstream reports item problems at the source's path, without the item index. */
function validateDownwardAPIFile(file: Json, f: string): Violation[] {
  const out: Violation[] = [];
  const path = str(file.path);
  if (path === '') out.push(required(`${f}.path`));
  out.push(...validateLocalNonReservedPath(path, `${f}.path`));
  if (isSet(file.fieldRef)) {
    out.push(...validateObjectFieldSelector(obj(file.fieldRef) ?? {}, volumeFieldPaths, `${f}.fieldRef`));
    if (isSet(file.resourceFieldRef)) out.push(invalid(f, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (isSet(file.resourceFieldRef)) {
    out.push(...validateResourceFieldSelector(obj(file.resourceFieldRef) ?? {}, `${f}.resourceFieldRef`, true));
  } else {
    out.push(required(f, 'one of fieldRef and resourceFieldRef is required'));
  }
  out.push(...validateMode(file, 'mode', f));
  return out;
}

export function validateDownwardAPIVolume(s: Json, f: string): Violation[] {
  return [...validateMode(s, 'defaultMode', f), ...list(s.items).flatMap((file) => validateDownwardAPIFile(obj(file) ?? {}, f))];
}

export function validateProjectedVolume(s: Json, f: string): Violation[] {
  const out = validateMode(s, 'defaultMode', f);
  const paths = new Set<string>();
  const claim = (path: string, shown: unknown): void => {
    if (paths.has(path)) out.push(invalid(f, shown, 'conflicting duplicate paths'));
    else paths.add(path);
  };
  list(s.sources).forEach((raw, i) => {
    const source = obj(raw) ?? {};
    const sf = `${f}.sources[${i}]`;
    let count = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const ref = obj(source[kind]);
      if (!isSet(source[kind])) continue;
      count++;
      const name = str(ref?.name);
      if (name === '') out.push(required(`${sf}.${kind}.name`));
      list(ref?.items).forEach((kpRaw, j) => {
        const kp = obj(kpRaw) ?? {};
        out.push(...validateKeyToPath(kp, `${sf}.${kind}.items[${j}]`));
        if (str(kp.path) !== '') claim(str(kp.path), name);
      });
    }
    if (isSet(source.downwardAPI)) {
      count++;
      for (const fileRaw of list(obj(source.downwardAPI)?.items)) {
        const file = obj(fileRaw) ?? {};
        out.push(...validateDownwardAPIFile(file, `${sf}.downwardAPI`));
        if (str(file.path) !== '') claim(str(file.path), str(file.path));
      }
    }
    if (isSet(source.serviceAccountToken)) {
      count++;
      out.push(...validateServiceAccountToken(obj(source.serviceAccountToken) ?? {}, f, `${sf}.serviceAccountToken`));
    }
    if (isSet(source.clusterTrustBundle)) {
      count++;
      const ctb = obj(source.clusterTrustBundle) ?? {};
      out.push(...validateClusterTrustBundle(ctb, `${sf}.clusterTrustBundle`));
      claim(str(ctb.path), str(ctb.path));
    }
    if (count > 1) out.push(forbidden(sf, 'may not specify more than 1 volume type per source'));
  });
  return out;
}

/** A missing or bad token path is reported at `projected.path` (upstream uses the volume's path there). */
function validateServiceAccountToken(t: Json, f: string, sf: string): Violation[] {
  const out: Violation[] = [];
  const seconds = num(t.expirationSeconds);
  if (seconds < 600) out.push(invalid(`${sf}.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'));
  if (seconds > 2 ** 32) out.push(invalid(`${sf}.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'));
  const path = str(t.path);
  if (path === '') out.push(required(`${f}.path`));
  else out.push(...validateLocalNonReservedPath(path, `${f}.path`));
  return out;
}

/**
 * The name/signerName choice and the path. Not covered: the syntax of a ClusterTrustBundle name or signer name
 * (ValidateClusterTrustBundleName / ValidateSignerName) and the labelSelector contents.
 */
function validateClusterTrustBundle(ctb: Json, f: string): Violation[] {
  const out: Violation[] = [];
  const usingName = isSet(ctb.name);
  const usingSigner = isSet(ctb.signerName);
  if (usingName && usingSigner) out.push(invalid(f, goClusterTrustBundle(ctb), 'only one of name and signerName may be used'));
  else if (usingName) {
    if (str(ctb.name) === '') out.push(required(`${f}.name`, 'must be a valid object name'));
    if (isSet(ctb.labelSelector)) out.push(invalid(`${f}.labelSelector`, ctb.labelSelector, 'labelSelector must be unset if name is specified'));
  } else if (usingSigner) {
    if (str(ctb.signerName) === '') out.push(required(`${f}.signerName`, 'must be a valid signer name'));
  } else {
    out.push(required(f, 'either name or signerName must be specified'));
  }
  const path = str(ctb.path);
  if (path === '') out.push(required(`${f}.path`));
  out.push(...validateLocalNonReservedPath(path, `${f}.path`));
  return out;
}

const goClusterTrustBundle = (ctb: Json): unknown => ({
  Name: ctb.name ?? null,
  SignerName: ctb.signerName ?? null,
  LabelSelector: ctb.labelSelector ?? null,
  Optional: ctb.optional ?? null,
  Path: str(ctb.path),
});
