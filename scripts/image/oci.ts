// An OCI image layout written directly (no umoci): content-addressed blobs, one image manifest per platform and an
// image index over them. Every byte follows from the inputs: tars sorted by name with one fixed mtime (the commit's
// time), owner 0:0 and normalised modes; gzip without a name or timestamp; JSON with a fixed key order.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, createReadStream, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const MT = {
  index: 'application/vnd.oci.image.index.v1+json',
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layer: 'application/vnd.oci.image.layer.v1.tar+gzip',
} as const;

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { architecture: string; os: string; variant?: string };
  annotations?: Record<string, string>;
}

export interface Layer extends Descriptor {
  /** sha256 of the uncompressed tar (the config's rootfs.diff_ids). */
  diffId: string;
}

async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return `sha256:${h.digest('hex')}`;
}

const blobPath = (store: string, digest: string) => join(store, 'blobs', ...digest.split(':'));

/** Stores `file` in `store` by its digest (moved); returns the digest. */
async function storeFile(store: string, file: string): Promise<string> {
  const digest = await sha256File(file);
  mkdirSync(join(store, 'blobs', 'sha256'), { recursive: true });
  if (!existsSync(blobPath(store, digest))) renameSync(file, blobPath(store, digest));
  else rmSync(file, { force: true });
  return digest;
}

/** Stores a JSON document; returns its descriptor. */
export function storeJson(store: string, mediaType: string, doc: unknown): Descriptor {
  const bytes = Buffer.from(JSON.stringify(doc));
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  mkdirSync(join(store, 'blobs', 'sha256'), { recursive: true });
  if (!existsSync(blobPath(store, digest))) writeFileSync(blobPath(store, digest), bytes);
  return { mediaType, digest, size: bytes.length };
}

/**
 * Modes independent of the builder's umask: directories 0755, files 0755 if anyone may run them else 0644; the top
 * `tmp` keeps its 1777. Symbolic links are left alone.
 */
function normaliseModes(dir: string, top = true): void {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) {
      if (!(top && e === 'tmp')) chmodSync(p, 0o755);
      normaliseModes(p, false);
    } else chmodSync(p, st.mode & 0o111 ? 0o755 : 0o644);
  }
}

/** A reproducible gzip-compressed layer of everything under `dir`, stored in `store`. */
export async function layerFromDir(store: string, dir: string, epoch: number, work: string): Promise<Layer> {
  const tar = join(work, `layer-${process.pid}-${Date.now()}.tar`);
  normaliseModes(dir);
  chmodSync(dir, 0o755);
  await run('tar', ['--sort=name', '--format=gnu', '--owner=0', '--group=0', '--numeric-owner', `--mtime=@${epoch}`,
    '-C', dir, '-cf', tar, '.'], { maxBuffer: 1 << 24 });
  const diffId = await sha256File(tar);
  // GNU gzip -n: no file name or time in the header, and the same bytes on every machine (unlike a SIMD zlib).
  await run('gzip', ['-n', '-6', tar]);
  const gz = `${tar}.gz`;
  const size = statSync(gz).size;
  const digest = await storeFile(store, gz);
  return { mediaType: MT.layer, digest, size, diffId };
}

/** Copies (hard-links where it can) the blobs named into another layout. */
export function copyBlobs(from: string, to: string, digests: string[]): void {
  mkdirSync(join(to, 'blobs', 'sha256'), { recursive: true });
  for (const d of digests) {
    if (existsSync(blobPath(to, d))) continue;
    try { linkSync(blobPath(from, d), blobPath(to, d)); } catch { copyFileSync(blobPath(from, d), blobPath(to, d)); }
  }
}

/** Writes `oci-layout` and `index.json` naming `top` by `tag`. */
export function writeLayoutIndex(layout: string, top: Descriptor, tag: string): void {
  writeFileSync(join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(join(layout, 'index.json'), JSON.stringify({ schemaVersion: 2, mediaType: MT.index,
    manifests: [{ ...top, annotations: { ...top.annotations, 'org.opencontainers.image.ref.name': tag } }] }));
}

export const blobFile = blobPath;
