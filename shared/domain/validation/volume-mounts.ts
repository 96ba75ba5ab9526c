// A container's `volumeMounts` and `volumeDevices` (k8s core validation ValidateVolumeMounts, ValidateVolumeDevices).
// `volumes` holds only the pod volumes that passed their own validation, as upstream's map does, so a mount of a
// broken volume is also "Not found". Upstream quirk kept: subPath/subPathExpr/mountPropagation/recursiveReadOnly errors
// carry the list's path (`volumeMounts.subPath`), not the item's.
import type { Violation } from '../../errors.js';
import { forbidden, invalid, isSet, list, notFound, notSupported, obj, required, str, type Json } from './field-errors.js';
import { validateLocalDescendingPath, validatePathNoBacksteps } from './paths.js';

/** name → path with the last entry winning, and the set of those paths (upstream scans the map's values). */
function pathsByName(items: unknown, pathKey: string): { byName: Map<string, string>; paths: Set<string> } {
  const byName = new Map<string, string>();
  for (const raw of list(items)) {
    const it = obj(raw) ?? {};
    byName.set(str(it.name), str(it[pathKey]));
  }
  return { byName, paths: new Set(byName.values()) };
}

export function validateVolumeMounts(container: Json, volumes: ReadonlyMap<string, Json>, f: string): Violation[] {
  const out: Violation[] = [];
  const devices = pathsByName(container.volumeDevices, 'devicePath');
  const privileged = obj(container.securityContext)?.privileged === true;
  const mountPoints = new Set<string>();
  list(container.volumeMounts).forEach((raw, i) => {
    const m = obj(raw) ?? {};
    const idx = `${f}[${i}]`;
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (name === '') out.push(required(`${idx}.name`));
    if (!volumes.has(name)) out.push(notFound(`${idx}.name`, name));
    if (mountPath === '') out.push(required(`${idx}.mountPath`));
    if (mountPoints.has(mountPath)) out.push(invalid(`${idx}.mountPath`, mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (devices.byName.has(name)) out.push(invalid(`${idx}.name`, name, 'must not already exist in volumeDevices'));
    if (devices.paths.has(mountPath)) out.push(invalid(`${idx}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = str(m.subPath);
    const subPathExpr = str(m.subPathExpr);
    // Kubernetes 1.32 (image volumes alpha); 1.33 lifted this, OpenKruise v1.9.0 validates with 1.32.
    if (isSet(volumes.get(name)?.image)) {
      if (subPath !== '') out.push(invalid(`${idx}.subPath`, subPath, 'not allowed in image volume sources'));
      if (subPathExpr !== '') out.push(invalid(`${idx}.subPathExpr`, subPathExpr, 'not allowed in image volume sources'));
    }
    if (subPath !== '') out.push(...validateLocalDescendingPath(subPath, `${f}.subPath`));
    if (subPathExpr !== '') {
      if (subPath !== '') out.push(invalid(`${idx}.subPathExpr`, subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      out.push(...validateLocalDescendingPath(subPathExpr, `${f}.subPathExpr`));
    }
    if (isSet(m.mountPropagation)) out.push(...validateMountPropagation(str(m.mountPropagation), privileged, `${f}.mountPropagation`));
    out.push(...validateRecursiveReadOnly(m, `${f}.recursiveReadOnly`));
  });
  return out;
}

const propagations = ['Bidirectional', 'HostToContainer', 'None'];

function validateMountPropagation(mode: string, privileged: boolean, f: string): Violation[] {
  const out: Violation[] = [];
  if (!propagations.includes(mode)) out.push(notSupported(f, mode, propagations));
  if (mode === 'Bidirectional' && !privileged) out.push(forbidden(f, 'Bidirectional mount propagation is available only to privileged containers'));
  return out;
}

function validateRecursiveReadOnly(m: Json, f: string): Violation[] {
  if (!isSet(m.recursiveReadOnly)) return [];
  const rro = str(m.recursiveReadOnly);
  if (rro === 'Disabled') return [];
  if (rro !== 'Enabled' && rro !== 'IfPossible') return [notSupported(f, rro, ['Disabled', 'Enabled', 'IfPossible'])];
  const out: Violation[] = [];
  if (m.readOnly !== true) out.push(forbidden(f, 'may only be specified when readOnly is true'));
  if (isSet(m.mountPropagation) && str(m.mountPropagation) !== 'None') {
    out.push(forbidden(f, 'may only be specified when mountPropagation is None or not specified'));
  }
  return out;
}

export function validateVolumeDevices(container: Json, volumes: ReadonlyMap<string, Json>, f: string): Violation[] {
  const out: Violation[] = [];
  const mounts = pathsByName(container.volumeMounts, 'mountPath');
  const devicePaths = new Set<string>();
  const deviceNames = new Set<string>();
  list(container.volumeDevices).forEach((raw, i) => {
    const d = obj(raw) ?? {};
    const idx = `${f}[${i}]`;
    const name = str(d.name);
    const devicePath = str(d.devicePath);
    const vol = volumes.get(name);
    if (name === '') out.push(required(`${idx}.name`));
    if (deviceNames.has(name)) out.push(invalid(`${idx}.name`, name, 'must be unique'));
    if (vol && !isSet(vol.persistentVolumeClaim) && !isSet(vol.ephemeral)) {
      out.push(invalid(`${idx}.name`, name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (!vol) out.push(notFound(`${idx}.name`, name));
    if (devicePath === '') out.push(required(`${idx}.devicePath`));
    if (devicePaths.has(devicePath)) out.push(invalid(`${idx}.devicePath`, devicePath, 'must be unique'));
    if (devicePath !== '' && validatePathNoBacksteps(devicePath, '').length > 0) {
      out.push(invalid(`${idx}.devicePath`, devicePath, "can not contain backsteps ('..')"));
    } else {
      devicePaths.add(devicePath);
    }
    if (mounts.byName.has(name)) out.push(invalid(`${idx}.name`, name, 'must not already exist in volumeMounts'));
    if (mounts.paths.has(devicePath)) out.push(invalid(`${idx}.devicePath`, devicePath, 'must not already exist as a path in volumeMounts'));
    if (name !== '') deviceNames.add(name);
  });
  return out;
}
