// Pull credentials from image pull Secrets, matched to a repository the way kubelet's docker keyring does
// (spec/daemon-and-controllers.md §2.5). Pure: Secrets arrive as plain objects; the caller fetches them.
// Nothing here logs, and errors never carry a Secret's content.
import { parseImageReference } from '../../shared/domain/image-ref.js';
import type { AuthConfig } from '../cri/runtime.js';

export interface SecretLike {
  metadata?: { namespace?: string; name?: string };
  type?: string;
  /** base64 values, as the API server returns them. */
  data?: Record<string, string>;
}

interface DockerConfigEntry {
  username?: string;
  password?: string;
  auth?: string;
}

/** One credential bound to a normalised registry key such as `index.docker.io` or `reg.io:5000/team`. */
export interface KeyringEntry {
  key: string;
  host: string;
  port: string;
  path: string;
  username: string;
  password: string;
}

const DOCKER_HUB = 'index.docker.io';
const DOCKER_HUB_ALIASES = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

const canonicalHost = (host: string): string => (DOCKER_HUB_ALIASES.has(host) ? DOCKER_HUB : host);

function decodeJson(b64: string | undefined): unknown {
  if (!b64) return undefined;
  try {
    return JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Registry map of a secret: `.dockerconfigjson` has `{auths: {...}}`, the legacy `.dockercfg` is the map itself. */
function registriesOf(secret: SecretLike): Record<string, DockerConfigEntry> {
  if (secret.type === 'kubernetes.io/dockerconfigjson') {
    const cfg = decodeJson(secret.data?.['.dockerconfigjson']) as { auths?: Record<string, DockerConfigEntry> } | undefined;
    return cfg?.auths && typeof cfg.auths === 'object' ? cfg.auths : {};
  }
  if (secret.type === 'kubernetes.io/dockercfg') {
    const cfg = decodeJson(secret.data?.['.dockercfg']);
    return cfg && typeof cfg === 'object' ? (cfg as Record<string, DockerConfigEntry>) : {};
  }
  return {};
}

/** kubelet's parseSchemelessURL + the `/v1/`, `/v2/` prefix strip; undefined for keys no URL parser accepts. */
function parseKey(raw: string): { host: string; port: string; path: string } | undefined {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return undefined;
  }
  let path = url.pathname.replace(/^\/v[12]\//, '/').replace(/\/+$/, '');
  if (path === '/') path = '';
  // URL drops a scheme-default port (:443); kubelet compares ports as written, so read it from the text.
  const authority = raw.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split('/')[0];
  const port = /:(\d+)$/.exec(authority)?.[1] ?? '';
  return { host: canonicalHost(url.hostname.toLowerCase()), port, path };
}

function credentialOf(entry: DockerConfigEntry): { username: string; password: string } | undefined {
  let { username = '', password = '' } = entry;
  if (entry.auth && !username && !password) {
    const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i < 0) return undefined;
    username = decoded.slice(0, i);
    password = decoded.slice(i + 1);
  }
  return username || password ? { username, password } : undefined;
}

export function makeKeyring(secrets: readonly SecretLike[]): KeyringEntry[] {
  const out: KeyringEntry[] = [];
  for (const secret of secrets) {
    for (const [raw, entry] of Object.entries(registriesOf(secret))) {
      const parsed = parseKey(raw);
      const cred = entry && typeof entry === 'object' ? credentialOf(entry) : undefined;
      if (!parsed || !cred) continue;
      const key = `${parsed.host}${parsed.port ? `:${parsed.port}` : ''}${parsed.path}`;
      out.push({ key, ...parsed, ...cred });
    }
  }
  // Descending key order puts the longest path under a host first: the most specific credential is tried first.
  return out.sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
}

/** Go path.Match on one host label, where only `*` is expected in practice. */
function labelMatches(pattern: string, label: string): boolean {
  if (!pattern.includes('*')) return pattern === label;
  const re = new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^.]*')}$`);
  return re.test(label);
}

function entryMatches(e: KeyringEntry, host: string, port: string, path: string): boolean {
  if (e.port !== port) return false;
  const want = e.host.split('.');
  const have = host.split('.');
  if (want.length !== have.length || !want.every((p, i) => labelMatches(p, have[i]))) return false;
  return e.path === '' || path === e.path || path.startsWith(`${e.path}/`);
}

/** Credentials for a repository such as `docker.io/library/nginx` or `127.0.0.1:5000/team/app`, most specific first. */
export function lookupCredentials(keyring: readonly KeyringEntry[], repository: string): KeyringEntry[] {
  const slash = repository.indexOf('/');
  const hostPort = slash >= 0 ? repository.slice(0, slash) : repository;
  const path = slash >= 0 ? repository.slice(slash) : '';
  const colon = hostPort.lastIndexOf(':');
  const host = canonicalHost((colon >= 0 ? hostPort.slice(0, colon) : hostPort).toLowerCase());
  const port = colon >= 0 ? hostPort.slice(colon + 1) : '';
  return keyring.filter((e) => entryMatches(e, host, port, path));
}

/** The AuthConfigs to try, in order, for a NodeImage image name (`nginx`, `reg.io:5000/app`). Empty → anonymous pull. */
export function authsForImage(keyring: readonly KeyringEntry[], imageName: string): AuthConfig[] {
  const parsed = parseImageReference(imageName);
  if (!parsed.ok) return [];
  return lookupCredentials(keyring, parsed.ref.name).map((e) => ({ username: e.username, password: e.password }));
}
