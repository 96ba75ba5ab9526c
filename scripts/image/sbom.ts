// The image's CycloneDX SBOM (one per platform): node, every production npm package and every Debian package in
// the image, with versions, purls and the hashes their registries sign or publish (npm's integrity, the .deb's
// SHA-256). Attached to the image as a layer of its own (annotated) and written next to `npm run image`'s output.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DebPin, DebianLock } from './debian.js';
import type { NodePin } from './node-pin.js';
import type { Arch } from './platforms.js';

interface LockEntry { name?: string; version?: string; integrity?: string; license?: string; dev?: boolean; optional?: boolean; devOptional?: boolean; link?: boolean }

/** package-lock paths (node_modules/…) of the production packages: neither dev nor optional (node-linux-* are). */
export function productionEntries(repoRoot: string): Array<[string, LockEntry]> {
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  return Object.entries(lock.packages)
    .filter(([p, e]) => p.startsWith('node_modules/') && !e.dev && !e.optional && !e.devOptional && !e.link)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const nameOf = (path: string, e: LockEntry) => e.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
const npmPurl = (name: string, version: string) => `pkg:npm/${name.startsWith('@') ? `%40${name.slice(1)}` : name}@${version}`;

/** `sha512-<base64>` (or sha1/sha256) as CycloneDX's { alg, content: hex }. */
function integrityHash(integrity: string | undefined): Array<{ alg: string; content: string }> {
  const m = /^(sha512|sha384|sha256|sha1)-(.+)$/.exec(integrity?.split(' ')[0] ?? '');
  if (!m) return [];
  const alg = { sha512: 'SHA-512', sha384: 'SHA-384', sha256: 'SHA-256', sha1: 'SHA-1' }[m[1] as 'sha512'];
  return [{ alg, content: Buffer.from(m[2] as string, 'base64').toString('hex') }];
}

export interface SbomInput {
  repoRoot: string;
  arch: Arch;
  image: { name: string; version: string; revision: string; created: string };
  node: NodePin;
  debian: DebianLock;
}

export function cycloneDx(i: SbomInput): Record<string, unknown> {
  const npm = productionEntries(i.repoRoot).map(([p, e]) => {
    const name = nameOf(p, e);
    const purl = npmPurl(name, e.version ?? '');
    return { type: 'library', 'bom-ref': `${purl}#${p}`, name, version: e.version, purl, hashes: integrityHash(e.integrity),
      ...(e.license ? { licenses: [{ expression: e.license }] } : {}), properties: [{ name: 'kruise-ts:path', value: `/app/${p}` }] };
  });
  const deb = i.debian.packages[i.arch].map((d: DebPin) => {
    const purl = `pkg:deb/debian/${d.name}@${encodeURIComponent(d.version)}?arch=${i.arch}&distro=debian-${i.debian.release}`;
    return { type: 'library', 'bom-ref': purl, name: d.name, version: d.version, purl, hashes: [{ alg: 'SHA-256', content: d.sha256 }] };
  });
  const nodePurl = npmPurl(i.node.name, i.node.version);
  const node = { type: 'application', 'bom-ref': nodePurl, name: 'node', version: i.node.version, purl: nodePurl,
    hashes: integrityHash(i.node.integrity), licenses: [{ license: { id: 'MIT' } }], properties: [{ name: 'kruise-ts:path', value: '/usr/bin/node' }] };
  const components = [node, ...deb, ...npm];
  const serial = createHash('sha256').update(JSON.stringify([i.image, i.arch, components])).digest('hex');
  return {
    bomFormat: 'CycloneDX', specVersion: '1.5',
    serialNumber: `urn:uuid:${serial.slice(0, 8)}-${serial.slice(8, 12)}-5${serial.slice(13, 16)}-8${serial.slice(17, 20)}-${serial.slice(20, 32)}`,
    version: 1,
    metadata: {
      timestamp: i.image.created,
      component: { type: 'container', 'bom-ref': `${i.image.name}@${i.image.version}`, name: i.image.name, version: i.image.version,
        properties: [{ name: 'org.opencontainers.image.revision', value: i.image.revision }, { name: 'platform', value: `linux/${i.arch}` }] },
    },
    components,
  };
}
