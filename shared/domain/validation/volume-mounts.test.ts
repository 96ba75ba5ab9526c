import { describe } from 'node:test';
import { runRuleCases, withContainer } from './pod-spec-cases.js';

const p = 'spec.containers[0]';
const vols = [{ name: 'data', emptyDir: {} }, { name: 'claim', persistentVolumeClaim: { claimName: 'c' } }];
const mounts = (list: object[], extra: object = {}) => withContainer({ volumeMounts: list, ...extra }, vols);

describe('volumeMount rules (ValidateVolumeMounts)', () => {
  runRuleCases([
    { name: 'a mount of a declared volume is valid', spec: mounts([{ name: 'data', mountPath: '/d', subPath: 'x/y' }]), want: [] },
    { name: 'a mount names a volume', spec: mounts([{ name: '', mountPath: '/d' }]), want: [`${p}.volumeMounts[0].name: Required value`, `${p}.volumeMounts[0].name: Not found: ""`] },
    { name: 'a mount names a declared volume', spec: mounts([{ name: 'x', mountPath: '/x' }]), want: [`${p}.volumeMounts[0].name: Not found: "x"`] },
    {
      name: 'a mount of a volume that failed validation is not found',
      spec: withContainer({ volumeMounts: [{ name: 'bad', mountPath: '/b' }] }, [{ name: 'bad', hostPath: { path: '' } }]),
      want: ['spec.volumes[0].hostPath.path: Required value', `${p}.volumeMounts[0].name: Not found: "bad"`],
    },
    { name: 'a mountPath is required', spec: mounts([{ name: 'data' }]), want: [`${p}.volumeMounts[0].mountPath: Required value`] },
    {
      name: 'mountPaths are unique in a container',
      spec: mounts([{ name: 'data', mountPath: '/x' }, { name: 'data', mountPath: '/x' }]),
      want: [`${p}.volumeMounts[1].mountPath: Invalid value: "/x": must be unique`],
    },
    {
      name: 'subPath is relative (reported at the list path, as upstream does)',
      spec: mounts([{ name: 'data', mountPath: '/d', subPath: '/abs' }]),
      want: [`${p}.volumeMounts.subPath: Invalid value: "/abs": must be a relative path`],
    },
    { name: "subPath has no '..'", spec: mounts([{ name: 'data', mountPath: '/d', subPath: 'a/../b' }]), want: [`${p}.volumeMounts.subPath: Invalid value: "a/../b": must not contain '..'`] },
    {
      name: 'subPath and subPathExpr are exclusive',
      spec: mounts([{ name: 'data', mountPath: '/d', subPath: 'a', subPathExpr: '$(POD)' }]),
      want: [`${p}.volumeMounts[0].subPathExpr: Invalid value: "$(POD)": subPathExpr and subPath are mutually exclusive`],
    },
    { name: 'subPathExpr is relative', spec: mounts([{ name: 'data', mountPath: '/d', subPathExpr: '/$(POD)' }]), want: [`${p}.volumeMounts.subPathExpr: Invalid value: "/$(POD)": must be a relative path`] },
    {
      name: 'mountPropagation is Bidirectional, HostToContainer or None',
      spec: mounts([{ name: 'data', mountPath: '/d', mountPropagation: 'Shared' }]),
      want: [`${p}.volumeMounts.mountPropagation: Unsupported value: "Shared": supported values: "Bidirectional", "HostToContainer", "None"`],
    },
    {
      name: 'Bidirectional propagation needs a privileged container',
      spec: mounts([{ name: 'data', mountPath: '/d', mountPropagation: 'Bidirectional' }]),
      want: [`${p}.volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers`],
    },
    { name: 'Bidirectional propagation in a privileged container is fine', spec: mounts([{ name: 'data', mountPath: '/d', mountPropagation: 'Bidirectional' }], { securityContext: { privileged: true } }), want: [] },
    {
      name: 'recursiveReadOnly is Disabled, Enabled or IfPossible',
      spec: mounts([{ name: 'data', mountPath: '/d', readOnly: true, recursiveReadOnly: 'Always' }]),
      want: [`${p}.volumeMounts.recursiveReadOnly: Unsupported value: "Always": supported values: "Disabled", "Enabled", "IfPossible"`],
    },
    {
      name: 'recursiveReadOnly needs readOnly and no propagation',
      spec: mounts([{ name: 'data', mountPath: '/d', recursiveReadOnly: 'Enabled', mountPropagation: 'HostToContainer' }]),
      want: [
        `${p}.volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true`,
        `${p}.volumeMounts.recursiveReadOnly: Forbidden: may only be specified when mountPropagation is None or not specified`,
      ],
    },
  ]);
});

describe('volumeDevice rules (ValidateVolumeDevices)', () => {
  const devices = (list: object[], extra: object = {}) => withContainer({ volumeDevices: list, ...extra }, vols);
  runRuleCases([
    { name: 'a device on a PVC volume is valid', spec: devices([{ name: 'claim', devicePath: '/dev/x' }]), want: [] },
    {
      name: 'a device needs a PVC or ephemeral volume',
      spec: devices([{ name: 'data', devicePath: '/dev/x' }]),
      want: [`${p}.volumeDevices[0].name: Invalid value: "data": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode`],
    },
    {
      name: 'a device names a declared volume and a path',
      spec: devices([{ name: 'nope' }]),
      want: [`${p}.volumeDevices[0].name: Not found: "nope"`, `${p}.volumeDevices[0].devicePath: Required value`],
    },
    {
      name: 'device names and paths are unique',
      spec: devices([{ name: 'claim', devicePath: '/dev/x' }, { name: 'claim', devicePath: '/dev/x' }]),
      want: [`${p}.volumeDevices[1].name: Invalid value: "claim": must be unique`, `${p}.volumeDevices[1].devicePath: Invalid value: "/dev/x": must be unique`],
    },
    { name: "a devicePath has no '..'", spec: devices([{ name: 'claim', devicePath: '/dev/../x' }]), want: [`${p}.volumeDevices[0].devicePath: Invalid value: "/dev/../x": can not contain backsteps ('..')`] },
    {
      name: 'a volume is either mounted or a device, never both, and paths do not overlap',
      spec: withContainer({ volumeMounts: [{ name: 'claim', mountPath: '/p' }], volumeDevices: [{ name: 'claim', devicePath: '/p' }] }, vols),
      want: [
        `${p}.volumeMounts[0].name: Invalid value: "claim": must not already exist in volumeDevices`,
        `${p}.volumeMounts[0].mountPath: Invalid value: "/p": must not already exist as a path in volumeDevices`,
        `${p}.volumeDevices[0].name: Invalid value: "claim": must not already exist in volumeMounts`,
        `${p}.volumeDevices[0].devicePath: Invalid value: "/p": must not already exist as a path in volumeMounts`,
      ],
    },
  ]);
});
