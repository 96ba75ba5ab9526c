// Validation of the simple (non-projected) volume sources (k8s core validation validate*VolumeSource). Each takes the
// source object and its path and returns its errors; volumes/index.ts decides which one runs.
import type { Violation } from '../../../errors.js';
import { canonicalQuantity, compareQuantityValues, parseQuantityValue } from '../../quantity.js';
import { validatePullPolicy } from '../containers.js';
import { forbidden, inclusiveRangeError, invalid, invalidEach, isSet, list, notSupported, num, obj, required, str, tooLong, type Json } from '../field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain, nameIsDNSSubdomain } from '../names.js';
import { isAbsPath, validateLocalDescendingPath, validatePathNoBacksteps } from '../paths.js';

export type SourceValidator = (source: Json, f: string) => Violation[];

const requiredIfEmpty = (source: Json, key: string, f: string, field = key): Violation[] => (str(source[key]) === '' ? [required(`${f}.${field}`)] : []);

export const validateEmptyDir: SourceValidator = (s, f) => {
  const limit = s.sizeLimit;
  if (typeof limit !== 'string' && typeof limit !== 'number') return [];
  try {
    if (compareQuantityValues(parseQuantityValue(limit), { unscaled: 0n, scale: 0 }) >= 0) return [];
  } catch {
    return [];
  }
  return [forbidden(`${f}.sizeLimit`, 'SizeLimit field must be a valid resource quantity')];
};

const hostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

export const validateHostPath: SourceValidator = (s, f) => {
  const path = str(s.path);
  if (path === '') return [required(`${f}.path`)];
  const out = validatePathNoBacksteps(path, `${f}.path`);
  if (isSet(s.type) && !hostPathTypes.includes(str(s.type))) out.push(notSupported(`${f}.type`, str(s.type), hostPathTypes));
  return out;
};

export const validateGitRepo: SourceValidator = (s, f) => [
  ...requiredIfEmpty(s, 'repository', f),
  ...validateLocalDescendingPath(str(s.directory), `${f}.directory`),
];

const partitionRange = inclusiveRangeError(1, 255);

export const validateGCEPersistentDisk: SourceValidator = (s, f) => {
  const out = requiredIfEmpty(s, 'pdName', f);
  const partition = num(s.partition);
  if (partition < 0 || partition > 255) out.push(invalid(`${f}.partition`, partition, partitionRange));
  return out;
};

export const validateAWSElasticBlockStore: SourceValidator = (s, f) => {
  const out = requiredIfEmpty(s, 'volumeID', f);
  const partition = num(s.partition);
  if (partition < 0 || partition > 255) out.push(invalid(`${f}.partition`, partition, partitionRange));
  return out;
};

export const validateNFS: SourceValidator = (s, f) => {
  const out = [...requiredIfEmpty(s, 'server', f), ...requiredIfEmpty(s, 'path', f)];
  if (!isAbsPath(str(s.path))) out.push(invalid(`${f}.path`, str(s.path), 'must be an absolute path'));
  return out;
};

const iqnPrefixRe = /iqn\.\d{4}-\d{2}\./g;
const iqnBodyChar = /[A-Za-z0-9.-]/;
const iqnTailForbidden = /[,;*&$|\t\n\f\r ]/;

/**
 * Go's unanchored `iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$`, decided in linear time (a backtracking
 * regex is quadratic on repeated "iqn.2000-01." prefixes). The body run cannot contain ':', so after a prefix the
 * match needs: a non-empty body run, then ':' right after it, then a non-empty tail of allowed characters to the end.
 */
function matchesIqn(s: string): boolean {
  // tailOk[i]: s[i..] is non-empty and free of forbidden characters; bodyEnd[i]: end of the body run starting at i.
  const tailOk = new Array<boolean>(s.length + 1).fill(false);
  const bodyEnd = new Array<number>(s.length + 1).fill(s.length);
  for (let i = s.length - 1; i >= 0; i--) {
    tailOk[i] = !iqnTailForbidden.test(s[i]!) && (i === s.length - 1 || tailOk[i + 1]!);
    bodyEnd[i] = iqnBodyChar.test(s[i]!) ? bodyEnd[i + 1]! : i;
  }
  for (const m of s.matchAll(iqnPrefixRe)) {
    const start = m.index! + m[0].length;
    const end = bodyEnd[start]!;
    if (end > start && s[end] === ':' && tailOk[end + 1]) return true;
  }
  return false;
}
const euiRe = /^eui.[A-Za-z0-9]{16}$/;
const naaRe = /^naa.[A-Za-z0-9]{32}$/;

/** "" when `id` is a well-formed iqn/eui/naa name, else the reason. */
function iscsiNameProblem(id: string): string {
  if (!id.startsWith('iqn') && !id.startsWith('eui') && !id.startsWith('naa')) return 'must be valid format starting with iqn, eui, or naa';
  if (id.startsWith('iqn') && !matchesIqn(id)) return 'must be valid format';
  if (id.startsWith('eui') && !euiRe.test(id)) return 'must be valid format';
  if (id.startsWith('naa') && !naaRe.test(id)) return 'must be valid format';
  return '';
}

export const validateISCSI: SourceValidator = (s, f) => {
  const out = requiredIfEmpty(s, 'targetPortal', f);
  const iqn = str(s.iqn);
  if (iqn === '') out.push(required(`${f}.iqn`));
  else if (iscsiNameProblem(iqn)) out.push(invalid(`${f}.iqn`, iqn, iscsiNameProblem(iqn)));
  const lun = num(s.lun);
  if (lun < 0 || lun > 255) out.push(invalid(`${f}.lun`, lun, inclusiveRangeError(0, 255)));
  if ((s.chapAuthDiscovery === true || s.chapAuthSession === true) && !isSet(s.secretRef)) out.push(required(`${f}.secretRef`));
  if (isSet(s.initiatorName)) {
    const initiator = str(s.initiatorName);
    const problem = iscsiNameProblem(initiator);
    if (problem) out.push(invalid(`${f}.initiatorname`, initiator, problem));
  }
  return out;
};

export const validateGlusterfs: SourceValidator = (s, f) => [...requiredIfEmpty(s, 'endpoints', f), ...requiredIfEmpty(s, 'path', f)];

export const validateFlocker: SourceValidator = (s, f) => {
  const out: Violation[] = [];
  const name = str(s.datasetName);
  const uuid = str(s.datasetUUID);
  if (name === '' && uuid === '') out.push(required(f, 'one of datasetName and datasetUUID is required'));
  if (name !== '' && uuid !== '') out.push(invalid(f, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) out.push(invalid(`${f}.datasetName`, name, "must not contain '/'"));
  return out;
};

export const validatePersistentVolumeClaim: SourceValidator = (s, f) => requiredIfEmpty(s, 'claimName', f);

export const validateRBD: SourceValidator = (s, f) => [
  ...(list(s.monitors).length === 0 ? [required(`${f}.monitors`)] : []),
  ...requiredIfEmpty(s, 'image', f),
];

const secretRefNameRequired = (s: Json, f: string): Violation[] =>
  obj(s.secretRef) && str(obj(s.secretRef)!.name) === '' ? [required(`${f}.secretRef.name`)] : [];

export const validateCinder: SourceValidator = (s, f) => [...requiredIfEmpty(s, 'volumeID', f), ...secretRefNameRequired(s, f)];

export const validateCephFS: SourceValidator = (s, f) => (list(s.monitors).length === 0 ? [required(`${f}.monitors`)] : []);

export const validateQuobyte: SourceValidator = (s, f) => {
  const out: Violation[] = [];
  const registry = str(s.registry);
  const pairsMsg = 'must be a host:port pair or multiple pairs separated by commas';
  if (registry === '') out.push(required(`${f}.registry`, pairsMsg));
  else if (str(s.tenant).length >= 65) out.push(required(`${f}.tenant`, 'must be a UUID and may not exceed a length of 64 characters'));
  else for (const pair of registry.split(',')) if (!isHostPort(pair)) out.push(invalid(`${f}.registry`, registry, pairsMsg));
  out.push(...requiredIfEmpty(s, 'volume', f));
  return out;
};

/** Go's net.SplitHostPort succeeding: `host:port` or `[v6]:port`, exactly one unbracketed colon. */
function isHostPort(pair: string): boolean {
  if (pair.startsWith('[')) return /^\[[^\][]*\]:[^\][:]*$/.test(pair);
  const colon = pair.lastIndexOf(':');
  return colon >= 0 && pair.indexOf(':') === colon && !/[[\]]/.test(pair);
}

export const validateFC: SourceValidator = (s, f) => {
  const out: Violation[] = [];
  const wwns = list(s.targetWWNs);
  const wwids = list(s.wwids);
  if (wwns.length < 1 && wwids.length < 1) out.push(required(`${f}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length !== 0 && wwids.length !== 0) out.push(invalid(`${f}.targetWWNs`, wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length !== 0) {
    if (!isSet(s.lun)) out.push(required(`${f}.lun`, 'lun is required if targetWWNs is specified'));
    else if (num(s.lun) < 0 || num(s.lun) > 255) out.push(invalid(`${f}.lun`, num(s.lun), inclusiveRangeError(0, 255)));
  }
  return out;
};

export const validateFlexVolume: SourceValidator = (s, f) => {
  const out = requiredIfEmpty(s, 'driver', f);
  // Sorted: upstream walks a Go map here.
  for (const k of Object.keys(obj(s.options) ?? {}).sort()) {
    const slash = k.indexOf('/');
    const namespace = slash >= 0 ? k.slice(0, slash) : k;
    const normalized = `.${namespace.toLowerCase()}`;
    if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io')) {
      out.push(invalid(`${f}.options[${k}]`, k, 'kubernetes.io and k8s.io namespaces are reserved'));
    }
  }
  return out;
};

export const validateAzureFile: SourceValidator = (s, f) => [...requiredIfEmpty(s, 'secretName', f), ...requiredIfEmpty(s, 'shareName', f)];

export const validateAzureDisk: SourceValidator = (s, f) => {
  const out = [...requiredIfEmpty(s, 'diskName', f), ...requiredIfEmpty(s, 'diskURI', f)];
  const uri = str(s.diskURI);
  if (isSet(s.cachingMode) && !['None', 'ReadOnly', 'ReadWrite'].includes(str(s.cachingMode))) {
    out.push(notSupported(`${f}.cachingMode`, str(s.cachingMode), ['None', 'ReadOnly', 'ReadWrite']));
  }
  if (isSet(s.kind)) {
    const kind = str(s.kind);
    if (!['Dedicated', 'Managed', 'Shared'].includes(kind)) out.push(notSupported(`${f}.kind`, kind, ['Dedicated', 'Managed', 'Shared']));
    if (kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
      out.push(notSupported(`${f}.diskURI`, uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
    }
    if (kind !== 'Managed' && !uri.startsWith('https://')) {
      out.push(notSupported(`${f}.diskURI`, uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
    }
  }
  return out;
};

export const validateVsphere: SourceValidator = (s, f) => requiredIfEmpty(s, 'volumePath', f);
export const validatePhoton: SourceValidator = (s, f) => requiredIfEmpty(s, 'pdID', f);
export const validatePortworx: SourceValidator = (s, f) => requiredIfEmpty(s, 'volumeID', f);

export const validateScaleIO: SourceValidator = (s, f) => [
  ...requiredIfEmpty(s, 'gateway', f),
  ...requiredIfEmpty(s, 'system', f),
  ...requiredIfEmpty(s, 'volumeName', f),
];

export const validateStorageOS: SourceValidator = (s, f) => {
  const out: Violation[] = [];
  const name = str(s.volumeName);
  if (name === '') out.push(required(`${f}.volumeName`));
  else out.push(...invalidEach(`${f}.volumeName`, name, isDNS1123Label(name)));
  const ns = str(s.volumeNamespace);
  if (ns !== '') out.push(...invalidEach(`${f}.volumeNamespace`, ns, isDNS1123Label(ns)));
  out.push(...secretRefNameRequired(s, f));
  return out;
};

export const validateCSI: SourceValidator = (s, f) => {
  const driver = str(s.driver);
  const out: Violation[] = [];
  if (driver === '') out.push(required(`${f}.driver`));
  if (Buffer.byteLength(driver) > 63) out.push(tooLong(`${f}.driver`, 63));
  out.push(...invalidEach(`${f}.driver`, driver, isDNS1123Subdomain(driver.toLowerCase())));
  const ref = obj(s.nodePublishSecretRef);
  if (ref) {
    const name = str(ref.name);
    // Upstream reports a bad secret name at `csi.name`, not `csi.nodePublishSecretRef.name`.
    if (name === '') out.push(required(`${f}.nodePublishSecretRef.name`));
    else out.push(...invalidEach(`${f}.name`, name, nameIsDNSSubdomain(name, false)));
  }
  return out;
};

/** kruise validates with ResourceIsPod off, so an image volume's `reference` may be empty. */
export const validateImage: SourceValidator = (s, f) => validatePullPolicy(s.pullPolicy, `${f}.pullPolicy`);

/** A quantity string as Go prints it, or the raw value when it does not parse. */
export function shownQuantity(q: unknown): unknown {
  try {
    return typeof q === 'string' || typeof q === 'number' ? canonicalQuantity(q) : q;
  } catch {
    return q;
  }
}
