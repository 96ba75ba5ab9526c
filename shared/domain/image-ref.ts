// Container image references, parsed the way Kubernetes does it when defaulting imagePullPolicy
// (k8s pkg/util/parsers.ParseImageName → github.com/distribution/reference ParseNormalizedNamed): Docker Hub
// normalisation ("nginx" → docker.io/library/nginx), lowercase repository, tag/digest grammar, sha256/384/512 digests.

export interface ImageReference {
  /** Registry host[:port], "docker.io" when none was given. */
  domain: string;
  /** Repository path inside the registry, e.g. "library/nginx". */
  path: string;
  /** `${domain}/${path}`. */
  name: string;
  /** "" when absent. */
  tag: string;
  /** "algorithm:hex", "" when absent. */
  digest: string;
}

export type ImageReferenceResult = { ok: true; ref: ImageReference } | { ok: false; error: string };

const alphanumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const host = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[(?:[a-fA-F0-9:]+)\\])`;
const domainAndPort = `${host}(?::[0-9]+)?`;
const pathComponent = `${alphanumeric}(?:${separator}${alphanumeric})*`;
const remoteName = `${pathComponent}(?:/${pathComponent})*`;
const tagPattern = '[\\w][\\w.-]{0,127}';
const digestPattern = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9A-Fa-f]{32,}';

const REFERENCE = new RegExp(`^((?:${domainAndPort}/)?${remoteName})(?::(${tagPattern}))?(?:@(${digestPattern}))?$`);
const NAME = new RegExp(`^(?:(${domainAndPort})/)?(${remoteName})$`);
const HEX_IDENTIFIER = /^[a-f0-9]{64}$/;
const DIGEST_HEX_LENGTH: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };
const MAX_PATH_LENGTH = 255;

/** Parses an image reference; `ok: false` exactly where Kubernetes' parser reports an error. */
export function parseImageReference(image: string): ImageReferenceResult {
  if (HEX_IDENTIFIER.test(image)) return fail(`invalid repository name (${image}), cannot specify 64-byte hexadecimal strings`);
  const [domain, remainder] = splitDockerDomain(image);
  const colon = remainder.indexOf(':');
  const remote = colon >= 0 ? remainder.slice(0, colon) : remainder;
  if (remote.toLowerCase() !== remote) return fail(`invalid reference format: repository name (${remote}) must be lowercase`);

  const full = `${domain}/${remainder}`;
  const m = REFERENCE.exec(full);
  if (!m) return fail(REFERENCE.test(full.toLowerCase()) ? 'repository name must be lowercase' : 'invalid reference format');
  const named = NAME.exec(m[1]!);
  const ref: ImageReference = {
    domain: named?.[1] ?? '',
    path: named?.[2] ?? m[1]!,
    name: m[1]!,
    tag: m[2] ?? '',
    digest: m[3] ?? '',
  };
  if (ref.path.length > MAX_PATH_LENGTH) return fail(`repository name must not be more than ${MAX_PATH_LENGTH} characters`);
  if (ref.digest) {
    const [algorithm, hex] = ref.digest.split(':') as [string, string];
    const length = DIGEST_HEX_LENGTH[algorithm];
    if (length === undefined) return fail('unsupported digest algorithm');
    if (hex.length !== length) return fail('invalid checksum digest length');
    if (!/^[a-f0-9]+$/.test(hex)) return fail('invalid checksum digest format');
  }
  return { ok: true, ref };
}

function fail(error: string): ImageReferenceResult {
  return { ok: false, error };
}

/** Docker Hub normalisation: a first path element is a registry only if it looks like a host. */
function splitDockerDomain(image: string): [string, string] {
  const slash = image.indexOf('/');
  if (slash < 0) return ['docker.io', `library/${image}`];
  const maybeDomain = image.slice(0, slash);
  const rest = image.slice(slash + 1);
  let domain: string;
  let remainder: string;
  if (maybeDomain === 'index.docker.io') {
    [domain, remainder] = ['docker.io', rest];
  } else if (maybeDomain === 'localhost' || /[.:]/.test(maybeDomain) || maybeDomain.toLowerCase() !== maybeDomain) {
    [domain, remainder] = [maybeDomain, rest];
  } else {
    [domain, remainder] = ['docker.io', image];
  }
  if (domain === 'docker.io' && !remainder.includes('/')) remainder = `library/${remainder}`;
  return [domain, remainder];
}

/**
 * Kubernetes' default imagePullPolicy for a container image: Always for ":latest" or an untagged, undigested image;
 * IfNotPresent otherwise, including images Kubernetes cannot parse.
 */
export function defaultImagePullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const parsed = parseImageReference(image);
  if (!parsed.ok) return 'IfNotPresent';
  const { tag, digest } = parsed.ref;
  return tag === 'latest' || (tag === '' && digest === '') ? 'Always' : 'IfNotPresent';
}

/** Thrown by normalizeImageRef; `message` is the parser's error text. */
export class ImageReferenceError extends Error {
  constructor(readonly image: string, message: string) {
    super(message);
    this.name = 'ImageReferenceError';
  }
}

/** Docker's familiar form (reference.FamiliarName): "docker.io/library/nginx" → "nginx", "docker.io/org/app" → "org/app". */
export function familiarImageName(ref: ImageReference): string {
  if (ref.domain !== 'docker.io') return ref.name;
  const official = ref.path.startsWith('library/') && !ref.path.slice('library/'.length).includes('/');
  return official ? ref.path.slice('library/'.length) : ref.path;
}

/**
 * (NodeImage key, NodeImage tag) for an image: the familiar name, and its tag — "latest" when untagged, the digest
 * when there is one (a digest pins the image, so NodeImage tracks it under that). Throws ImageReferenceError.
 */
export function normalizeImageRef(image: string): { name: string; tag: string } {
  // distribution's ErrNameEmpty text; ParseNormalizedNamed itself only says "invalid reference format" for "", and
  // NodeImage callers have always reported the more useful message.
  if (image === '') throw new ImageReferenceError(image, 'repository name must have at least one component');
  const parsed = parseImageReference(image);
  if (!parsed.ok) throw new ImageReferenceError(image, parsed.error);
  const { ref } = parsed;
  return { name: familiarImageName(ref), tag: ref.digest || ref.tag || 'latest' };
}
