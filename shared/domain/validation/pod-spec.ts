// The subset of Kubernetes' ValidatePodCreate that SidecarSet validation relies on (spec/webhooks.md §3 step 10,
// §9 note 10). Upstream runs the full apiserver validation over a fake pod; we check the rules that a sidecar
// definition can realistically break. Field paths follow the fake pod (`spec.containers[0].image`).
import type { V1LifecycleHandler, V1Probe } from '@kubernetes/client-node';
import type { Container, Volume } from '../../api/meta.js';
import type { Violation } from '../../errors.js';
import { isDNS1123Label, isEnvVarName } from './names.js';
import { compareQuantityValues, parseQuantityValue, QuantityParseError, type QuantityValue } from '../quantity.js';

export interface PodSpecSubset {
  initContainers?: Container[];
  containers?: Container[];
  volumes?: Volume[];
}

const volumeSources = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi',
  'ephemeral', 'image',
] as const;
const protocols = ['SCTP', 'TCP', 'UDP'];

export function validatePodSpecSubset(spec: PodSpecSubset): Violation[] {
  const out: Violation[] = [];
  const volumes = validateVolumes(spec.volumes ?? [], out);
  const seen = new Set<string>();
  (spec.initContainers ?? []).forEach((c, i) => validateContainer(c, `spec.initContainers[${i}]`, true, volumes, seen, out));
  (spec.containers ?? []).forEach((c, i) => validateContainer(c, `spec.containers[${i}]`, false, volumes, seen, out));
  return out;
}

/** Returns name → volume for the mount checks. */
function validateVolumes(volumes: Volume[], out: Violation[]): Map<string, Volume> {
  const byName = new Map<string, Volume>();
  volumes.forEach((v, i) => {
    const f = `spec.volumes[${i}]`;
    const name = v.name ?? '';
    if (name === '') out.push({ field: `${f}.name`, type: 'Required value', detail: '' });
    else for (const detail of isDNS1123Label(name)) out.push({ field: `${f}.name`, type: 'Invalid value', value: name, detail });
    if (byName.has(name)) out.push({ field: `${f}.name`, type: 'Duplicate value', value: name, detail: '' });
    else byName.set(name, v);
    const sources = volumeSources.filter((s) => (v as unknown as Record<string, unknown>)[s] != null).length;
    if (sources === 0) out.push({ field: f, type: 'Required value', detail: 'must specify a volume type' });
    else if (sources > 1) out.push({ field: f, type: 'Forbidden', detail: 'may not specify more than 1 volume type' });
  });
  return byName;
}

function validateContainer(c: Container, f: string, init: boolean, volumes: Map<string, Volume>, seen: Set<string>, out: Violation[]): void {
  const name = c.name ?? '';
  if (name === '') out.push({ field: `${f}.name`, type: 'Required value', detail: '' });
  else for (const detail of isDNS1123Label(name)) out.push({ field: `${f}.name`, type: 'Invalid value', value: name, detail });
  if (name !== '' && seen.has(name)) out.push({ field: `${f}.name`, type: 'Duplicate value', value: name, detail: '' });
  seen.add(name);
  if (!c.image) out.push({ field: `${f}.image`, type: 'Required value', detail: '' });

  if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
    if (!init) out.push({ field: `${f}.restartPolicy`, type: 'Forbidden', detail: 'may not be set for non-init containers' });
    else if (c.restartPolicy !== 'Always') {
      out.push({ field: `${f}.restartPolicy`, type: 'Unsupported value', value: c.restartPolicy, detail: 'supported values: "Always"' });
    }
  }
  validateMounts(c, f, volumes, out);
  (c.env ?? []).forEach((e, i) => {
    if (!e.name) out.push({ field: `${f}.env[${i}].name`, type: 'Required value', detail: '' });
    else for (const detail of isEnvVarName(e.name)) out.push({ field: `${f}.env[${i}].name`, type: 'Invalid value', value: e.name, detail });
  });
  (c.ports ?? []).forEach((p, i) => {
    const pf = `${f}.ports[${i}]`;
    if (!p.containerPort) out.push({ field: `${pf}.containerPort`, type: 'Required value', detail: '' });
    else if (!validPort(p.containerPort)) out.push({ field: `${pf}.containerPort`, type: 'Invalid value', value: p.containerPort, detail: portMsg });
    if (p.hostPort && !validPort(p.hostPort)) out.push({ field: `${pf}.hostPort`, type: 'Invalid value', value: p.hostPort, detail: portMsg });
    if (!p.protocol) out.push({ field: `${pf}.protocol`, type: 'Required value', detail: '' });
    else if (!protocols.includes(p.protocol)) {
      out.push({ field: `${pf}.protocol`, type: 'Unsupported value', value: p.protocol, detail: 'supported values: "SCTP", "TCP", "UDP"' });
    }
  });
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    const p = c[probe] as V1Probe | undefined;
    if (p) validateHandlerCount(p, ['exec', 'httpGet', 'tcpSocket', 'grpc'], `${f}.${probe}`, out);
  }
  for (const hook of ['postStart', 'preStop'] as const) {
    const h = c.lifecycle?.[hook] as V1LifecycleHandler | undefined;
    if (h) validateHandlerCount(h, ['exec', 'httpGet', 'tcpSocket', 'sleep'], `${f}.lifecycle.${hook}`, out);
  }
  validateResources(c, `${f}.resources`, out);
}

const portMsg = 'must be between 1 and 65535, inclusive';
const validPort = (p: number): boolean => Number.isInteger(p) && p >= 1 && p <= 65535;

function validateMounts(c: Container, f: string, volumes: Map<string, Volume>, out: Violation[]): void {
  const mountPaths = new Set<string>();
  const devicePaths = new Set((c.volumeDevices ?? []).map((d) => d.devicePath));
  (c.volumeMounts ?? []).forEach((m, i) => {
    const mf = `${f}.volumeMounts[${i}]`;
    if (!m.name) out.push({ field: `${mf}.name`, type: 'Required value', detail: '' });
    else if (!volumes.has(m.name)) out.push({ field: `${mf}.name`, type: 'Not found', value: m.name, detail: '' });
    if (!m.mountPath) out.push({ field: `${mf}.mountPath`, type: 'Required value', detail: '' });
    else if (mountPaths.has(m.mountPath)) out.push({ field: `${mf}.mountPath`, type: 'Invalid value', value: m.mountPath, detail: 'must be unique' });
    else if (devicePaths.has(m.mountPath)) {
      out.push({ field: `${mf}.mountPath`, type: 'Invalid value', value: m.mountPath, detail: 'must not already exist as a path in volumeDevices' });
    }
    mountPaths.add(m.mountPath);
  });
  const seenDevices = new Set<string>();
  (c.volumeDevices ?? []).forEach((d, i) => {
    const df = `${f}.volumeDevices[${i}]`;
    const vol = d.name ? volumes.get(d.name) : undefined;
    if (!d.name) out.push({ field: `${df}.name`, type: 'Required value', detail: '' });
    else if (!vol) out.push({ field: `${df}.name`, type: 'Not found', value: d.name, detail: '' });
    else if (!vol.persistentVolumeClaim && !vol.ephemeral) {
      out.push({ field: `${df}.name`, type: 'Invalid value', value: d.name, detail: 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode' });
    }
    if (!d.devicePath) out.push({ field: `${df}.devicePath`, type: 'Required value', detail: '' });
    else if (seenDevices.has(d.devicePath)) out.push({ field: `${df}.devicePath`, type: 'Invalid value', value: d.devicePath, detail: 'must be unique' });
    else if (mountPaths.has(d.devicePath)) {
      out.push({ field: `${df}.devicePath`, type: 'Invalid value', value: d.devicePath, detail: 'must not already exist as a path in volumeMounts' });
    }
    seenDevices.add(d.devicePath);
  });
}

function validateHandlerCount(h: object, kinds: string[], f: string, out: Violation[]): void {
  const n = kinds.filter((k) => (h as Record<string, unknown>)[k] != null).length;
  if (n === 0) out.push({ field: f, type: 'Required value', detail: 'must specify a handler type' });
  else if (n > 1) out.push({ field: f, type: 'Forbidden', detail: 'may not specify more than 1 handler type' });
}

function validateResources(c: Container, f: string, out: Violation[]): void {
  const limits = (c.resources?.limits ?? {}) as Record<string, string | number>;
  const requests = (c.resources?.requests ?? {}) as Record<string, string | number>;
  const all = [
    ...Object.entries(limits).map(([n, q]) => [`limits[${n}]`, q] as const),
    ...Object.entries(requests).map(([n, q]) => [`requests[${n}]`, q] as const),
  ];
  for (const [name, q] of all) {
    const v = tryParseQuantity(q);
    if (v === undefined) out.push({ field: `${f}.${name}`, type: 'Invalid value', value: q, detail: 'quantities must match the regular expression' });
    else if (v.unscaled < 0n) out.push({ field: `${f}.${name}`, type: 'Invalid value', value: q, detail: 'must be greater than or equal to 0' });
  }
  for (const [name, req] of Object.entries(requests)) {
    const lim = limits[name];
    if (lim === undefined) continue;
    const r = tryParseQuantity(req);
    const l = tryParseQuantity(lim);
    if (r !== undefined && l !== undefined && compareQuantityValues(r, l) > 0) {
      out.push({ field: `${f}.requests`, type: 'Invalid value', value: String(req), detail: `must be less than or equal to ${name} limit of ${lim}` });
    }
  }
}

/** undefined for anything Go's ParseQuantity would reject; the violation for that is reported by the caller. */
function tryParseQuantity(q: unknown): QuantityValue | undefined {
  if (typeof q !== 'string' && typeof q !== 'number') return undefined;
  try {
    return parseQuantityValue(q);
  } catch (err) {
    if (err instanceof QuantityParseError) return undefined;
    throw err;
  }
}
