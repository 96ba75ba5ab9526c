// The request an httpGet probe sends, built as upstream builds it (spec §6.4, Kubernetes pkg/probe/http request.go
// semantics): pure, so the URL and header rules are table-tested without a server.
import type { V1HTTPGetAction, V1HTTPHeader } from '@kubernetes/client-node';

export interface ProbeRequest {
  /** As Go's url.URL.String() prints it: a fragment or a lone `?` in `path` is kept. */
  url: string;
  /** Canonical names, values in the order they were added. */
  headers: Map<string, string[]>;
  /** From a `Host` header; '' = the URL's host. */
  host: string;
}

/** Go's IntOrString.IntValue(): a string that is not a decimal integer is 0. */
export function intValue(port: number | string | undefined): number {
  if (typeof port === 'number') return port;
  if (port === undefined || !/^[+-]?\d+$/.test(port)) return 0;
  return Number(port);
}

/** net.JoinHostPort: IPv6 literals in brackets. */
export const joinHostPort = (host: string, port: number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

const HEX2 = /^[0-9a-fA-F]{2}$/;

/** Go's url.Parse error for a bad escape, e.g. `parse "path%notvalid": invalid URL escape "%no"`. */
function checkEscapes(raw: string, part: string): void {
  for (let i = part.indexOf('%'); i >= 0; i = part.indexOf('%', i + 1)) {
    if (!HEX2.test(part.slice(i + 1, i + 3))) throw new Error(`parse ${JSON.stringify(raw)}: invalid URL escape ${JSON.stringify(part.slice(i, i + 3))}`);
  }
}

/**
 * `path` parsed as a URL reference (path, `?query`, `#fragment`), then given `scheme` and `host:port`, as upstream's
 * formatURL: `("http","localhost",93,"?foo")` → `http://localhost:93?foo`. A relative path gets its leading slash.
 */
export function formatUrl(scheme: string, host: string, port: number, path: string): string {
  let rest = path;
  let fragment: string | undefined;
  const hash = rest.indexOf('#');
  if (hash >= 0) { fragment = rest.slice(hash + 1); rest = rest.slice(0, hash); }
  let query: string | undefined;
  const q = rest.indexOf('?');
  if (q >= 0) { query = rest.slice(q + 1); rest = rest.slice(0, q); }
  checkEscapes(path, rest);
  if (fragment !== undefined) checkEscapes(path, fragment);
  const p = rest && !rest.startsWith('/') ? `/${rest}` : rest;
  return `${scheme}://${joinHostPort(host, port)}${p}${query !== undefined ? `?${query}` : ''}${fragment !== undefined ? `#${fragment}` : ''}`;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** textproto.CanonicalMIMEHeaderKey: `FOO-bAR` → `Foo-Bar`; a key with characters outside a token is left alone. */
export function canonicalHeaderKey(name: string): string {
  if (!TOKEN.test(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
}

/** http.Header built with Add: canonical keys, values in order. */
export function headersOf(list: readonly V1HTTPHeader[] | undefined): Map<string, string[]> {
  const h = new Map<string, string[]>();
  for (const { name, value } of list ?? []) {
    const k = canonicalHeaderKey(name);
    h.set(k, [...(h.get(k) ?? []), value]);
  }
  return h;
}

/**
 * The probe request for `action` against `podIP` (used when `host` is empty). Throws for a port outside 1–65535
 * (`invalid port number: <n>`) or an unparsable path. `userAgentFragment` makes `User-Agent: kube-<fragment>`.
 */
export function newProbeRequest(action: V1HTTPGetAction, podIP: string, userAgentFragment = 'probe'): ProbeRequest {
  const scheme = action.scheme ? action.scheme.toLowerCase() : 'http';
  const host = action.host || podIP;
  const port = intValue(action.port);
  if (port <= 0 || port >= 65536) throw new Error(`invalid port number: ${port}`);
  const url = formatUrl(scheme, host, port, action.path ?? '');
  const headers = headersOf(action.httpHeaders);
  if (!headers.has('User-Agent')) headers.set('User-Agent', [`kube-${userAgentFragment}`]);
  if (!headers.has('Accept')) headers.set('Accept', ['*/*']);
  else if (!headers.get('Accept')![0]) headers.delete('Accept');
  return { url, headers, host: headers.get('Host')?.[0] ?? '' };
}
