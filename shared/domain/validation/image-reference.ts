// Docker image references (distribution/reference ParseNormalizedNamed), reduced to what NodeImage/ImagePullJob need:
// validity, and the (familiar name, tag-or-digest) pair the NodeImage map is keyed by.
const alnum = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const pathComponent = `${alnum}(?:${separator}${alnum})*`;
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domain = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const pathRe = new RegExp(`^${pathComponent}(?:/${pathComponent})*$`);
const domainRe = new RegExp(`^${domain}$`);
const tagRe = /^[\w][\w.-]{0,127}$/;
const digestRe = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/;
const nameTotalLengthMax = 255;

export interface ImageReference {
  /** Fully qualified repository, e.g. docker.io/library/nginx. */
  repository: string;
  /** Familiar form used as the NodeImage key, e.g. nginx or quay.io/org/app. */
  familiarName: string;
  tag?: string;
  digest?: string;
}

/** Parses a reference; throws Error with a distribution/reference-style message when it is invalid. */
export function parseImageReference(ref: string): ImageReference {
  if (ref === '') throw new Error('repository name must have at least one component');
  let rest = ref;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!digestRe.test(digest)) throw new Error('invalid reference format');
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!tagRe.test(tag)) throw new Error('invalid reference format');
  }
  const slash = rest.indexOf('/');
  const first = slash >= 0 ? rest.slice(0, slash) : '';
  const isDomain = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase());
  let host = isDomain ? first : 'docker.io';
  let path = isDomain ? rest.slice(slash + 1) : rest;
  if (host === 'index.docker.io') host = 'docker.io';
  if (host === 'docker.io' && !path.includes('/')) path = `library/${path}`;
  if (path !== path.toLowerCase()) throw new Error('repository name must be lowercase');
  if (!domainRe.test(host) || !pathRe.test(path)) throw new Error('invalid reference format');
  const repository = `${host}/${path}`;
  if (repository.length > nameTotalLengthMax) throw new Error(`repository name must not be more than ${nameTotalLengthMax} characters`);
  let familiarName = repository;
  if (host === 'docker.io') familiarName = path.startsWith('library/') && path.split('/').length === 2 ? path.slice('library/'.length) : path;
  const out: ImageReference = { repository, familiarName };
  if (tag !== undefined) out.tag = tag;
  if (digest !== undefined) out.digest = digest;
  return out;
}

/** (NodeImage key, NodeImage tag): the tag defaults to latest; a digest reference uses the digest as its tag. */
export function normalizeImageRef(ref: string): { name: string; tag: string } {
  const r = parseImageReference(ref);
  return { name: r.familiarName, tag: r.digest ?? r.tag ?? 'latest' };
}
