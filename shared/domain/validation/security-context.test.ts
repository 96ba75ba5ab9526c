import { describe } from 'node:test';
import { runRuleCases, withContainer } from './pod-spec-cases.js';

const p = 'spec.containers[0].securityContext';
const sc = (securityContext: object) => withContainer({ securityContext });
const nullSc = {
  Capabilities: null, Privileged: null, SELinuxOptions: null, WindowsOptions: null, RunAsUser: null, RunAsGroup: null, RunAsNonRoot: null,
  ReadOnlyRootFilesystem: null, AllowPrivilegeEscalation: null, ProcMount: null, SeccompProfile: null, AppArmorProfile: null,
};

describe('securityContext rules (ValidateSecurityContext)', () => {
  runRuleCases([
    { name: 'a privileged container is allowed (kruise runs with --allow-privileged)', spec: sc({ privileged: true }), want: [] },
    { name: 'runAsUser is non-negative', spec: sc({ runAsUser: -1 }), want: [`${p}.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive`] },
    { name: 'runAsGroup fits in int32', spec: sc({ runAsGroup: 2147483648 }), want: [`${p}.runAsGroup: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive`] },
    {
      name: 'allowPrivilegeEscalation false contradicts privileged true',
      spec: sc({ privileged: true, allowPrivilegeEscalation: false }),
      want: [`${p}: Invalid value: ${JSON.stringify({ ...nullSc, Privileged: true, AllowPrivilegeEscalation: false })}: cannot set \`allowPrivilegeEscalation\` to false and \`privileged\` to true`],
    },
    {
      name: 'allowPrivilegeEscalation false contradicts adding CAP_SYS_ADMIN',
      spec: sc({ allowPrivilegeEscalation: false, capabilities: { add: ['CAP_SYS_ADMIN'] } }),
      want: [
        `${p}: Invalid value: ${JSON.stringify({ ...nullSc, Capabilities: { Add: ['CAP_SYS_ADMIN'], Drop: null }, AllowPrivilegeEscalation: false })}: cannot set \`allowPrivilegeEscalation\` to false and \`capabilities.Add\` CAP_SYS_ADMIN`,
      ],
    },
    { name: 'procMount is Default or Unmasked', spec: sc({ procMount: 'Masked' }), want: [`${p}.procMount: Unsupported value: "Masked": supported values: "Default", "Unmasked"`] },
    { name: 'an Unmasked procMount needs hostUsers false', spec: sc({ procMount: 'Unmasked' }), want: [`${p}.procMount: Invalid value: "Unmasked": \`hostUsers\` must be false to use \`Unmasked\``] },
    { name: 'a seccomp profile needs a type', spec: sc({ seccompProfile: {} }), want: [`${p}.seccompProfile.type: Required value: type is required when seccompProfile is set`] },
    {
      name: 'a seccomp profile type is Localhost, RuntimeDefault or Unconfined',
      spec: sc({ seccompProfile: { type: 'Docker' } }),
      want: [`${p}.seccompProfile.type: Unsupported value: "Docker": supported values: "Localhost", "RuntimeDefault", "Unconfined"`],
    },
    {
      name: 'a Localhost seccomp profile names a relative file',
      spec: sc({ seccompProfile: { type: 'Localhost', localhostProfile: '/etc/p.json' } }),
      want: [`${p}.seccompProfile.localhostProfile: Invalid value: "/etc/p.json": must be a relative path`],
    },
    {
      name: 'only a Localhost seccomp profile names a file',
      spec: sc({ seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'p.json' } }),
      want: [`${p}.seccompProfile.localhostProfile: Invalid value: {"Type":"RuntimeDefault","LocalhostProfile":"p.json"}: can only be set when seccomp type is Localhost`],
    },
    { name: 'an AppArmor profile needs a type', spec: sc({ appArmorProfile: {} }), want: [`${p}.appArmorProfile.type: Required value: type is required when appArmorProfile is set`] },
    {
      name: 'a Localhost AppArmor profile is named and unpadded',
      spec: sc({ appArmorProfile: { type: 'Localhost', localhostProfile: ' p ' } }),
      want: [`${p}.appArmorProfile.localhostProfile: Invalid value: " p ": must not be padded with whitespace`],
    },
    {
      name: 'only a Localhost AppArmor profile is named',
      spec: sc({ appArmorProfile: { type: 'Unconfined', localhostProfile: 'p' } }),
      want: [`${p}.appArmorProfile.localhostProfile: Invalid value: "p": can only be set when AppArmor type is Localhost`],
    },
    {
      name: 'a Windows runAsUserName has at most one backslash',
      spec: sc({ windowsOptions: { runAsUserName: 'a\\b\\c' } }),
      want: [`${p}.windowsOptions.runAsUserName: Invalid value: "a\\\\b\\\\c": runAsUserName cannot contain more than one backslash`],
    },
    {
      name: 'a Windows gmsaCredentialSpecName is a DNS subdomain',
      spec: sc({ windowsOptions: { gmsaCredentialSpecName: 'A' } }),
      want: [
        `${p}.windowsOptions.gmsaCredentialSpecName: Invalid value: "A": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    },
  ]);
});
