// A pod's name resolution as Kubernetes 1.32 validates it in a pod spec (pkg/apis/core/validation: validateDNSPolicy,
// validatePodDNSConfig, ValidateHostAliases) and apimachinery's IsValidIP (netutils.ParseIPSloppy: IPv4 octets may
// carry leading zeros).
import { isIPv6 } from 'node:net';
import type { Violation } from '../../errors.js';
import { byteLength, invalid, list, notSupported, obj, required, str, type Json } from './field-errors.js';
import { isDNS1123Subdomain } from './names.js';

const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const MAX_NAMESERVERS = 3;
const MAX_SEARCHES = 32;
const MAX_SEARCH_CHARS = 2048;

export function isSloppyIP(s: string): boolean {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(s)) return s.split('.').every((o) => Number(o) <= 255);
  return !s.includes('%') && isIPv6(s);
}

export function validateIP(value: string, f: string): Violation[] {
  return isSloppyIP(value) ? [] : [invalid(f, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
}

export function validateDNSPolicy(spec: Json, f: string): Violation[] {
  const p = str(spec.dnsPolicy);
  if (p === '') return [required(f)];
  return dnsPolicies.includes(p) ? [] : [notSupported(f, p, dnsPolicies)];
}


export function validateDNSConfig(spec: Json, f: string): Violation[] {
  const cfg = obj(spec.dnsConfig);
  const out: Violation[] = [];
  if (str(spec.dnsPolicy) === 'None') {
    if (!cfg) return [required(f, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (list(cfg.nameservers).length === 0) return [required(`${f}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!cfg) return out;
  const ns: string[] = list(cfg.nameservers).map(str);
  if (ns.length > MAX_NAMESERVERS) out.push({ ...invalid(`${f}.nameservers`, ns, `must not have more than ${MAX_NAMESERVERS} nameservers`), goValue: goSlice(ns) });
  ns.forEach((n, i) => out.push(...validateIP(n, `${f}.nameservers[${i}]`)));
  const searches: string[] = list(cfg.searches).map(str);
  if (searches.length > MAX_SEARCHES) out.push({ ...invalid(`${f}.searches`, searches, `must not have more than ${MAX_SEARCHES} search paths`), goValue: goSlice(searches) });
  if (byteLength(searches.join(' ')) > MAX_SEARCH_CHARS) {
    out.push({ ...invalid(`${f}.searches`, searches, `must not have more than ${MAX_SEARCH_CHARS} characters (including spaces) in the search list`), goValue: goSlice(searches) });
  }
  searches.forEach((s, i) => {
    const trimmed = s.endsWith('.') ? s.slice(0, -1) : s;
    for (const m of isDNS1123Subdomain(trimmed)) out.push(invalid(`${f}.searches[${i}]`, trimmed, m));
  });
  list(cfg.options).forEach((o, i) => { if (str(obj(o)?.name) === '') out.push(required(`${f}.options[${i}]`, 'must not be empty')); });
  return out;
}

/** A []string value as field.Error prints it (%#v). */
const goSlice = (xs: string[]) => `[]string{${xs.map((x) => JSON.stringify(x)).join(', ')}}`;

export function validateHostAliases(aliases: unknown, f: string): Violation[] {
  const out: Violation[] = [];
  list(aliases).forEach((raw, i) => {
    const a = obj(raw) ?? {};
    out.push(...validateIP(str(a.ip), `${f}[${i}].ip`));
    list(a.hostnames).forEach((h, j) => {
      for (const m of isDNS1123Subdomain(str(h))) out.push(invalid(`${f}[${i}].hostnames[${j}]`, str(h), m));
    });
  });
  return out;
}

