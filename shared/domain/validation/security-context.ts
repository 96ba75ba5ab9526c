// A container's `securityContext` (k8s core validation ValidateSecurityContext, validateSeccompProfileField,
// ValidateAppArmorProfileField, validateWindowsSecurityContextOptions). Privileged containers are allowed: kruise-manager
// starts with --allow-privileged=true by default, so "disallowed by cluster policy" never fires upstream either.
import type { Violation } from '../../errors.js';
import { inclusiveRangeError, invalid, isSet, list, notSupported, obj, required, str, tooLong, type Json } from './field-errors.js';
import { isDNS1123Subdomain } from './names.js';
import { validateLocalDescendingPath } from './paths.js';

const maxId = 2147483647;

export function validateSecurityContext(raw: unknown, f: string, hostUsers = true): Violation[] {
  const sc = obj(raw);
  if (!sc) return [];
  const out: Violation[] = [];
  for (const k of ['runAsUser', 'runAsGroup']) {
    if (typeof sc[k] === 'number' && (sc[k] < 0 || sc[k] > maxId)) out.push(invalid(`${f}.${k}`, sc[k], inclusiveRangeError(0, maxId)));
  }
  if (isSet(sc.procMount)) {
    const pm = str(sc.procMount);
    if (pm !== 'Default' && pm !== 'Unmasked') out.push(notSupported(`${f}.procMount`, pm, ['Default', 'Unmasked']));
    // hostUsers defaults to true (SidecarSet's fake pod has no securityContext).
    if (hostUsers && pm === 'Unmasked') out.push(invalid(`${f}.procMount`, pm, '`hostUsers` must be false to use `Unmasked`'));
  }
  out.push(...validateSeccompProfile(obj(sc.seccompProfile), `${f}.seccompProfile`));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) out.push(invalid(f, goSecurityContext(sc), 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of list(obj(sc.capabilities)?.add)) {
      if (cap === 'CAP_SYS_ADMIN') out.push(invalid(f, goSecurityContext(sc), 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  out.push(...validateWindowsOptions(obj(sc.windowsOptions), `${f}.windowsOptions`));
  out.push(...validateAppArmorProfile(obj(sc.appArmorProfile), `${f}.appArmorProfile`));
  return out;
}

export function validateSeccompProfile(sp: Json | undefined, f: string): Violation[] {
  if (!sp) return [];
  const out: Violation[] = [];
  const type = str(sp.type);
  if (type === '') out.push(required(`${f}.type`, 'type is required when seccompProfile is set'));
  else if (!['Localhost', 'RuntimeDefault', 'Unconfined'].includes(type)) out.push(notSupported(`${f}.type`, type, ['Localhost', 'RuntimeDefault', 'Unconfined']));
  if (type === 'Localhost') {
    if (!isSet(sp.localhostProfile)) out.push(required(`${f}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else out.push(...validateLocalDescendingPath(str(sp.localhostProfile), `${f}.localhostProfile`));
  } else if (isSet(sp.localhostProfile)) {
    out.push(invalid(`${f}.localhostProfile`, { Type: type, LocalhostProfile: str(sp.localhostProfile) }, 'can only be set when seccomp type is Localhost'));
  }
  return out;
}

export function validateAppArmorProfile(p: Json | undefined, f: string): Violation[] {
  if (!p) return [];
  const type = str(p.type);
  const lp = `${f}.localhostProfile`;
  switch (type) {
    case 'Localhost': {
      if (!isSet(p.localhostProfile)) return [required(lp, 'must be set when AppArmor type is Localhost')];
      const profile = str(p.localhostProfile);
      const out: Violation[] = [];
      if (profile.trim() !== profile) out.push(invalid(lp, profile, 'must not be padded with whitespace'));
      else if (profile === '') out.push(required(lp, 'must be set when AppArmor type is Localhost'));
      if (Buffer.byteLength(profile) > 4095) out.push(tooLong(lp, 4095));
      return out;
    }
    case 'RuntimeDefault':
    case 'Unconfined':
      return isSet(p.localhostProfile) ? [invalid(lp, str(p.localhostProfile), 'can only be set when AppArmor type is Localhost')] : [];
    case '':
      return [required(`${f}.type`, 'type is required when appArmorProfile is set')];
    default:
      return [notSupported(`${f}.type`, type, ['Localhost', 'RuntimeDefault', 'Unconfined'])];
  }
}

// eslint-disable-next-line no-control-regex
const ctrlRe = /[\x00-\x1f\x7f]/;
const netBiosRe = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
const dnsLabel = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const windowsDomainDnsRe = new RegExp(`^${dnsLabel}(?:\\.${dnsLabel})*$`);

export function validateWindowsOptions(w: Json | undefined, f: string): Violation[] {
  if (!w) return [];
  const out: Violation[] = [];
  if (isSet(w.gmsaCredentialSpecName)) {
    const name = str(w.gmsaCredentialSpecName);
    for (const m of isDNS1123Subdomain(name)) out.push(invalid(`${f}.gmsaCredentialSpecName`, name, m));
  }
  if (isSet(w.gmsaCredentialSpec)) {
    const spec = str(w.gmsaCredentialSpec);
    if (spec === '') out.push(invalid(`${f}.gmsaCredentialSpec`, spec, 'gmsaCredentialSpec cannot be an empty string'));
    else if (Buffer.byteLength(spec) > 64 * 1024) out.push(invalid(`${f}.gmsaCredentialSpec`, spec, 'gmsaCredentialSpec size must be under 64 KiB'));
  }
  if (isSet(w.runAsUserName)) out.push(...validateRunAsUserName(str(w.runAsUserName), `${f}.runAsUserName`));
  return out;
}

function validateRunAsUserName(name: string, f: string): Violation[] {
  if (name === '') return [invalid(f, name, 'runAsUserName cannot be an empty string')];
  if (ctrlRe.test(name)) return [invalid(f, name, 'runAsUserName cannot contain control characters')];
  const parts = name.split('\\');
  if (parts.length > 2) return [invalid(f, name, 'runAsUserName cannot contain more than one backslash')];
  const hasDomain = parts.length === 2;
  const domain = hasDomain ? parts[0]! : '';
  const user = hasDomain ? parts[1]! : parts[0]!;
  const out: Violation[] = [];
  if (domain.length >= 256) out.push(invalid(f, name, "runAsUserName's Domain length must be under 256 characters"));
  if (hasDomain && !(netBiosRe.test(domain) || windowsDomainDnsRe.test(domain))) {
    out.push(invalid(f, name, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"));
  }
  if (user.length === 0) out.push(invalid(f, name, "runAsUserName's User cannot be empty"));
  else if (user.length > 104) out.push(invalid(f, name, "runAsUserName's User length must not be longer than 104 characters"));
  if (/^[. ]+$/.test(user)) out.push(invalid(f, name, "runAsUserName's User cannot contain only periods or spaces"));
  if (/["/\\:;|=,+*?<>@[\]]/.test(user)) out.push(invalid(f, name, `runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`));
  return out;
}

const orNull = (v: unknown): unknown => (v === undefined ? null : v);

/**
 * The internal core.SecurityContext as Go's json.Marshal renders it in an "Invalid value" (no json tags, so Go field
 * names, every field present), so the message matches upstream's byte for byte.
 */
function goSecurityContext(sc: Json): unknown {
  const caps = obj(sc.capabilities);
  const se = obj(sc.seLinuxOptions);
  const win = obj(sc.windowsOptions);
  const seccomp = obj(sc.seccompProfile);
  const apparmor = obj(sc.appArmorProfile);
  return {
    Capabilities: caps ? { Add: caps.add ?? null, Drop: caps.drop ?? null } : null,
    Privileged: orNull(sc.privileged),
    SELinuxOptions: se ? { User: str(se.user), Role: str(se.role), Type: str(se.type), Level: str(se.level) } : null,
    WindowsOptions: win
      ? { GMSACredentialSpecName: orNull(win.gmsaCredentialSpecName), GMSACredentialSpec: orNull(win.gmsaCredentialSpec), RunAsUserName: orNull(win.runAsUserName), HostProcess: orNull(win.hostProcess) }
      : null,
    RunAsUser: orNull(sc.runAsUser),
    RunAsGroup: orNull(sc.runAsGroup),
    RunAsNonRoot: orNull(sc.runAsNonRoot),
    ReadOnlyRootFilesystem: orNull(sc.readOnlyRootFilesystem),
    AllowPrivilegeEscalation: orNull(sc.allowPrivilegeEscalation),
    ProcMount: orNull(sc.procMount),
    SeccompProfile: seccomp ? { Type: str(seccomp.type), LocalhostProfile: orNull(seccomp.localhostProfile) } : null,
    AppArmorProfile: apparmor ? { Type: str(apparmor.type), LocalhostProfile: orNull(apparmor.localhostProfile) } : null,
  };
}
