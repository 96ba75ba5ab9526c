// The kruise-ts container image (manager, controllers and daemon in one), assembled without a Docker engine as an
// OCI layout with an image index for linux/amd64 and linux/arm64, from pinned inputs only (nothing of the build
// host's own runtime): `npm run image` (scripts/image-cli.ts) builds it for users; the local cluster's harness
// builds it through the same function. Layers, per platform:
//   1 runtime: the pinned Debian packages node links against (scripts/image/debian.lock.json, fetched with apt per
//     architecture, SHA-256 checked), /etc/passwd and /etc/group (user 65532), /tmp;
//   2 node:    the pinned Node (package.json engines = package-lock's node-linux-<arch>, integrity checked);
//   3 deps:    the production node_modules (package-lock entries neither dev nor optional; no tsx, no esbuild);
//   4 app:     the esbuild bundles (scripts/bundles.ts: webhook + its admission worker, controller + its lease thread,
//              daemon + cri.proto, the kruise-ts CLI);
//   5 sbom:    /usr/share/sbom/kruise-ts.cdx.json, that platform's CycloneDX SBOM (the layer is annotated as such).
// Reproducible: every file's mtime and the configs' `created` are the commit's time, tars are sorted, and the
// same commit in two clones gives the same index digest. Config: WORKDIR /app, ENTRYPOINT node, CMD
// `dist/webhook/main.mjs`, USER 65532 (runAsNonRoot); no shell and no other program; nothing is written inside the
// image at run time, so it runs with a read-only root filesystem.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { BUNDLES, bundlesBuilt, type Bundle } from './bundles.js';
import { debianLock, fetchDebs, unpackDebs, type DebianLock } from './image/debian.js';
import { fetchNode, nodePin } from './image/node-pin.js';
import { blobFile, copyBlobs, layerFromDir, MT, storeJson, writeLayoutIndex, type Descriptor, type Layer } from './image/oci.js';
import { elfMachine, hostPlatform, PLATFORMS, type Platform } from './image/platforms.js';
import { cycloneDx, productionEntries } from './image/sbom.js';
import { VERSION } from '../shared/version.js';

const run = promisify(execFile);
/** The image's name, and its tag in the layout: the package version. */
export const KRUISE_TS_IMAGE = { name: 'kruise-ts/manager', tag: VERSION };

export interface KruiseTsImage {
  name: string;
  tag: string;
  /** The OCI layout directory. */
  layout: string;
  /** `oci:<layout>:<tag>`, the skopeo source (an index: skopeo picks this machine's platform unless told --all). */
  ociRef: string;
  /** The image index's digest: the same for the same commit, whichever clone or machine builds it. */
  digest: string;
  /** Each platform's CycloneDX SBOM, also in the layout folder. */
  sboms: Record<string, string>;
}

/** Layouts and fetched inputs are cached outside the repo (other worktrees share the cache); KRUISE_TS_IMAGE_CACHE moves it. */
export const defaultImageCacheDir = (): string => process.env.KRUISE_TS_IMAGE_CACHE || join(homedir(), '.cache', 'kruise-ts', 'images');
/** Build outputs put into the app layer (relative to the repo): every bundle and what it reads beside itself. */
const BUNDLE_FILES = Object.values(BUNDLES).flatMap((b: Bundle) => [b.out, ...b.assets.map(([, to]) => to), ...(b.workers ?? []).map(([, out]) => out)]).sort();
const NONROOT = '65532';
const LAYOUT_VERSION = 5;
const SBOM_PATH = 'usr/share/sbom/kruise-ts.cdx.json';

interface Source { revision: string; epoch: number; created: string }

/** The commit the image is built from: its id (`-dirty` with uncommitted changes to tracked files) and time. */
function sourceOf(repoRoot: string): Source {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  const [sha, ct] = git('log', '-1', '--format=%H %ct').split(' ') as [string, string];
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  const epoch = Number(ct);
  return { revision: dirty ? `${sha}-dirty` : sha, epoch, created: new Date(epoch * 1000).toISOString().replace('.000Z', 'Z') };
}

const hash = (...parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24);

/** A layer built once per key: its descriptor is kept next to the blob store. */
async function cachedLayer(store: string, key: string, make: () => Promise<Layer>): Promise<Layer> {
  const f = join(store, 'layers', `${key}.json`);
  if (existsSync(f)) {
    const l = JSON.parse(readFileSync(f, 'utf8')) as Layer;
    if (existsSync(blobFile(store, l.digest))) return l;
  }
  const l = await make();
  mkdirSync(dirname(f), { recursive: true });
  writeFileSync(f, JSON.stringify(l));
  return l;
}

function assertElf(root: string, files: string[], p: Platform): void {
  for (const f of files) {
    const fd = readFileSync(join(root, f)).subarray(0, 20);
    const m = elfMachine(fd);
    if (m !== p.elfMachine) throw new Error(`${p.arch} image: ${f} has ELF machine ${m}, not ${p.elfMachine}`);
  }
}

function libsUnder(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir)).filter((f) => /\.so(\.\d+)*$/.test(f) && statSync(join(root, dir, f)).isFile()).map((f) => join(dir, f));
}

async function runtimeLayer(repoRoot: string, store: string, work: string, p: Platform, lock: DebianLock, src: Source, cacheDir: string): Promise<Layer> {
  return cachedLayer(store, `runtime-${hash(LAYOUT_VERSION, p.arch, lock.packages[p.arch], src.epoch)}`, async () => {
    const root = mkdtempSync(join(work, `runtime-${p.arch}-`));
    await unpackDebs(await fetchDebs(lock, p.arch, cacheDir), root);
    for (const d of ['tmp', 'etc', 'app']) mkdirSync(join(root, d), { recursive: true });
    chmodSync(join(root, 'tmp'), 0o1777);
    writeFileSync(join(root, 'etc/passwd'), `root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:${NONROOT}:${NONROOT}:nonroot:/app:/sbin/nologin\n`);
    writeFileSync(join(root, 'etc/group'), `root:x:0:\nnonroot:x:${NONROOT}:\n`);
    const triplet = p.arch === 'amd64' ? 'x86_64-linux-gnu' : 'aarch64-linux-gnu';
    const libs = [...libsUnder(root, `lib/${triplet}`), ...libsUnder(root, `usr/lib/${triplet}`)];
    if (libs.length < 5) throw new Error(`${p.arch} runtime: only ${libs.length} libraries unpacked`);
    assertElf(root, libs, p);
    return layerFromDir(store, root, src.epoch, work);
  });
}

async function nodeLayer(repoRoot: string, store: string, work: string, p: Platform, src: Source, cacheDir: string): Promise<Layer> {
  const pin = nodePin(repoRoot, p);
  return cachedLayer(store, `node-${hash(LAYOUT_VERSION, pin, src.epoch)}`, async () => {
    const pkg = await fetchNode(pin, cacheDir);
    const root = mkdtempSync(join(work, `node-${p.arch}-`));
    mkdirSync(join(root, 'usr/bin'), { recursive: true });
    mkdirSync(join(root, 'usr/share/doc/nodejs'), { recursive: true });
    copyFileSync(join(pkg, 'bin/node'), join(root, 'usr/bin/node'));
    chmodSync(join(root, 'usr/bin/node'), 0o755);
    copyFileSync(join(pkg, 'LICENSE'), join(root, 'usr/share/doc/nodejs/LICENSE'));
    assertElf(root, ['usr/bin/node'], p);
    return layerFromDir(store, root, src.epoch, work);
  });
}

async function depsLayer(repoRoot: string, store: string, work: string, src: Source): Promise<Layer> {
  const entries = productionEntries(repoRoot);
  // Top-level packages only: nested node_modules come along inside them.
  const top = entries.map(([p]) => p).filter((p) => !p.slice('node_modules/'.length).includes('/node_modules/'));
  return cachedLayer(store, `deps-${hash(LAYOUT_VERSION, entries, src.epoch)}`, async () => {
    const root = mkdtempSync(join(work, 'deps-'));
    for (const p of top) {
      if (!existsSync(join(repoRoot, p))) throw new Error(`${p} is in package-lock.json but not installed: run npm ci`);
      // Links as written (cpSync would make them absolute, naming this clone); no .bin folders: nothing runs them.
      cpSync(join(repoRoot, p), join(root, 'app', p), { recursive: true, dereference: false, verbatimSymlinks: true,
        filter: (from) => !from.split('/').includes('.bin') });
    }
    return layerFromDir(store, root, src.epoch, work);
  });
}

async function appLayer(repoRoot: string, store: string, work: string, src: Source): Promise<Layer> {
  const h = createHash('sha256');
  for (const f of BUNDLE_FILES) h.update(`${f}\0`).update(readFileSync(join(repoRoot, f))).update('\0');
  return cachedLayer(store, `app-${hash(LAYOUT_VERSION, h.digest('hex'), src.epoch)}`, async () => {
    const root = mkdtempSync(join(work, 'app-'));
    for (const f of BUNDLE_FILES) {
      mkdirSync(join(root, 'app', dirname(f)), { recursive: true });
      copyFileSync(join(repoRoot, f), join(root, 'app', f));
    }
    return layerFromDir(store, root, src.epoch, work);
  });
}

/** The OCI annotations (and config labels) saying what the image is built from. */
function annotationsOf(src: Source, repoRoot: string): Record<string, string> {
  return {
    'org.opencontainers.image.created': src.created,
    'org.opencontainers.image.licenses': 'Apache-2.0',
    'org.opencontainers.image.revision': src.revision,
    'org.opencontainers.image.title': KRUISE_TS_IMAGE.name,
    'org.opencontainers.image.version': VERSION,
    'io.kruise-ts.runtime.node': nodePin(repoRoot, hostPlatform()).version,
    'io.kruise-ts.runtime.debian': `${debianLock(repoRoot).release} (${debianLock(repoRoot).suite})`,
  };
}

/** Builds (or reuses) the image for the sources as they are on disk now. */
export async function buildKruiseTsImage(repoRoot: string, cacheDir = defaultImageCacheDir()): Promise<KruiseTsImage> {
  mkdirSync(cacheDir, { recursive: true });
  const src = sourceOf(repoRoot);
  const lock = debianLock(repoRoot);
  const store = join(cacheDir, 'store');
  await bundlesBuilt(repoRoot);
  const work = mkdtempSync(join(cacheDir, '.build-kruise-ts-'));
  try {
    const annotations = annotationsOf(src, repoRoot);
    const [deps, app] = [await depsLayer(repoRoot, store, work, src), await appLayer(repoRoot, store, work, src)];
    const manifests: Descriptor[] = [];
    const blobs: string[] = [];
    const sboms: Record<string, Record<string, unknown>> = {};
    for (const p of PLATFORMS) {
      const runtime = await runtimeLayer(repoRoot, store, work, p, lock, src, cacheDir);
      const node = await nodeLayer(repoRoot, store, work, p, src, cacheDir);
      const sbom = sboms[p.arch] = cycloneDx({ repoRoot, arch: p.arch, node: nodePin(repoRoot, p), debian: lock,
        image: { name: KRUISE_TS_IMAGE.name, version: VERSION, revision: src.revision, created: src.created } });
      const sbomRoot = mkdtempSync(join(work, `sbom-${p.arch}-`));
      mkdirSync(join(sbomRoot, dirname(SBOM_PATH)), { recursive: true });
      writeFileSync(join(sbomRoot, SBOM_PATH), `${JSON.stringify(sbom, null, 2)}\n`);
      const sbomLayer: Layer = { ...await layerFromDir(store, sbomRoot, src.epoch, work),
        annotations: { 'org.opencontainers.image.title': SBOM_PATH, 'io.kruise-ts.sbom': 'application/vnd.cyclonedx+json' } };
      const layers = [runtime, node, deps, app, sbomLayer];
      const config = storeJson(store, MT.config, {
        created: src.created, architecture: p.arch, os: 'linux', ...(p.arch === 'arm64' ? { variant: 'v8' } : {}),
        config: { User: `${NONROOT}:${NONROOT}`, Env: ['PATH=/usr/bin', 'NODE_ENV=production'], Entrypoint: ['node'],
          Cmd: ['dist/webhook/main.mjs'], WorkingDir: '/app', Labels: annotations },
        rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
        history: ['runtime (Debian packages)', 'node', 'production node_modules', 'bundles', 'sbom']
          .map((c) => ({ created: src.created, created_by: `scripts/image.ts: ${c}` })),
      });
      const manifest = storeJson(store, MT.manifest, { schemaVersion: 2, mediaType: MT.manifest, config,
        layers: layers.map(({ mediaType, digest, size, annotations: a }) => ({ mediaType, digest, size, ...(a ? { annotations: a } : {}) })), annotations });
      manifests.push({ ...manifest, platform: { architecture: p.arch, os: 'linux', ...(p.arch === 'arm64' ? { variant: 'v8' } : {}) } });
      blobs.push(config.digest, manifest.digest, ...layers.map((l) => l.digest));
    }
    const index = storeJson(store, MT.index, { schemaVersion: 2, mediaType: MT.index, manifests, annotations });
    blobs.push(index.digest);
    const layout = join(cacheDir, `kruise-ts-${index.digest.slice('sha256:'.length, 'sha256:'.length + 16)}`);
    const image: KruiseTsImage = { ...KRUISE_TS_IMAGE, layout, ociRef: `oci:${layout}:${KRUISE_TS_IMAGE.tag}`, digest: index.digest,
      sboms: Object.fromEntries(Object.keys(sboms).map((a) => [a, join(layout, `sbom-${a}.cdx.json`)])) };
    pruneStale(cacheDir, [layout, store]);
    if (existsSync(join(layout, 'index.json'))) {
      touch(layout);
      return image;
    }
    const tmp = join(work, 'layout');
    copyBlobs(store, tmp, blobs);
    writeLayoutIndex(tmp, { ...index, annotations }, KRUISE_TS_IMAGE.tag);
    for (const [a, s] of Object.entries(sboms)) writeFileSync(join(tmp, `sbom-${a}.cdx.json`), `${JSON.stringify(s, null, 2)}\n`);
    if (!existsSync(join(layout, 'index.json'))) renameSync(tmp, layout);
    return image;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const touch = (dir: string) => { const now = new Date(); utimesSync(dir, now, now); };

/** Every source change leaves a layout (its blobs are hard links into the store); those unused for a day go. */
function pruneStale(cacheDir: string, keep: string[], maxAgeMs = 24 * 3600_000): void {
  for (const e of readdirSync(cacheDir)) {
    const p = join(cacheDir, e);
    if (!e.startsWith('kruise-ts-') || keep.includes(p)) continue;
    try {
      if (Date.now() - statSync(p).mtimeMs > maxAgeMs) rmSync(p, { recursive: true, force: true });
    } catch { /* removed meanwhile */ }
  }
}

const skopeo = (args: string[]) => run('skopeo', args, { timeout: 300_000, maxBuffer: 1 << 24 });

/**
 * A docker-archive tarball (`docker save` format, tagged `name:tag`) of this machine's platform, which `ctr images
 * import`, `kind load image-archive` and `docker load` all take.
 */
export async function writeArchive(image: KruiseTsImage, file: string, ref = `${image.name}:${image.tag}`): Promise<void> {
  rmSync(file, { force: true });
  await skopeo(['copy', '--quiet', image.ociRef, `docker-archive:${file}:${ref}`]);
}

/** Copies the image to a skopeo destination such as `docker://registry.example.com/kruise-ts:0.1.0`. */
export async function pushImageTo(image: KruiseTsImage, dest: string, opts: { tlsVerify?: boolean; creds?: string; allPlatforms?: boolean } = {}): Promise<void> {
  const args = ['copy', '--quiet'];
  if (opts.allPlatforms) args.push('--all');
  if (opts.tlsVerify === false) args.push('--dest-tls-verify=false');
  if (opts.creds) args.push('--dest-creds', opts.creds);
  await skopeo([...args, image.ociRef, dest]);
}

/** One platform's manifest (this machine's by default). */
export function platformManifest(image: KruiseTsImage, arch = hostPlatform().arch): { config: { digest: string; size: number }; layers: Array<{ digest: string; size: number; annotations?: Record<string, string> }> } {
  const read = (digest: string) => JSON.parse(readFileSync(blobFile(image.layout, digest), 'utf8')) as unknown;
  const index = read(image.digest) as { manifests: Descriptor[] };
  const m = index.manifests.find((x) => x.platform?.architecture === arch);
  if (!m) throw new Error(`no ${arch} manifest in ${image.layout}`);
  return read(m.digest) as ReturnType<typeof platformManifest>;
}

/** What a pull of this machine's platform transfers: the manifest's config and its compressed layers. */
export function imageSize(image: KruiseTsImage): { compressed: number; layers: number } {
  const manifest = platformManifest(image);
  return { compressed: manifest.config.size + manifest.layers.reduce((a, l) => a + l.size, 0), layers: manifest.layers.length };
}
