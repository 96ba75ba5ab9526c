// Whether Go's net/url.Parse accepts a string: the PodProbeMarker webhook refuses an httpGet path it rejects
// ("must be a valid URL path", spec/node-probes-and-sidecar-lifecycle.md §3.3). Only the accept/refuse decision is
// needed, not Go's error texts. Linear in the input: a fixed number of passes, no backtracking.

const isHex = (c: string): boolean => /[0-9A-Fa-f]/.test(c);
const isAlpha = (c: string): boolean => /[A-Za-z]/.test(c);

/** url.unescape's escape check: every `%` is followed by two hex digits. */
function validEscapes(s: string): boolean {
  for (let i = s.indexOf('%'); i >= 0; i = s.indexOf('%', i + 1)) {
    if (i + 2 >= s.length || !isHex(s[i + 1]!) || !isHex(s[i + 2]!)) return false;
  }
  return true;
}

/** The ASCII characters a host may hold unescaped (url.shouldEscape in encodeHost mode returns false for them). */
const HOST_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"%\u0080-\uffff]*$/;
const USERINFO_CHARS = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@\u0080-\uffff]*$/;

const validOptionalPort = (p: string): boolean => p === '' || /^:[0-9]*$/.test(p);

function validHost(host: string): boolean {
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']');
    if (end < 0 || !validOptionalPort(host.slice(end + 1))) return false;
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !validOptionalPort(host.slice(colon))) return false;
  }
  return HOST_CHARS.test(host) && validEscapes(host);
}

function validAuthority(authority: string): boolean {
  const at = authority.lastIndexOf('@');
  if (at < 0) return validHost(authority);
  const userinfo = authority.slice(0, at);
  return validHost(authority.slice(at + 1)) && USERINFO_CHARS.test(userinfo) && validEscapes(userinfo);
}

/** The scheme split of url.getScheme: `undefined` when Go reports "missing protocol scheme". */
function splitScheme(raw: string): { scheme: string; rest: string } | undefined {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (isAlpha(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === ':') return i === 0 ? undefined : { scheme: raw.slice(0, i), rest: raw.slice(i + 1) };
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

/** net/url.Parse(raw) returns no error. */
export function goUrlParses(raw: string): boolean {
  // Control bytes anywhere (before the fragment is cut) are refused.
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  const hash = raw.indexOf('#');
  const fragment = hash >= 0 ? raw.slice(hash + 1) : '';
  const u = hash >= 0 ? raw.slice(0, hash) : raw;
  if (!validEscapes(fragment)) return false;
  if (u === '*') return true;
  const split = splitScheme(u);
  if (!split) return false;
  let rest = split.rest;
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) {
    if (split.scheme !== '') return true; // opaque (mailto:…)
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) return false;
  }
  if ((split.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    const after = rest.slice(2);
    const slash = after.indexOf('/');
    if (!validAuthority(slash < 0 ? after : after.slice(0, slash))) return false;
    rest = slash < 0 ? '' : after.slice(slash);
  }
  return validEscapes(rest);
}
