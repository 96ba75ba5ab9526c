// The kruise-ts container image (manager, controllers and daemon in one), assembled without a Docker engine: an
// OCI layout made with umoci from two layer tarballs. `npm run image` (scripts/image-cli.ts) builds it for users;
// the local cluster's harness builds it through the same function.
//   layer 1 (runtime, cached by content): the host's Node 20 binary with the shared libraries ldd names, and the
//            production node_modules (`npm ls --omit=dev`); no shell and no other program: nothing runs one;
//   layer 2 (app): the esbuild bundles every container runs (`npm run build`, scripts/bundles.ts →
//            /app/dist/{webhook,controller,daemon}/main.mjs + the webhook's worker.mjs and the daemon's cri.proto), and the project's sources,
//            which only the `kruise-ts` CLI (bin/kruise-ts.js, through tsx) needs.
// Config: WORKDIR /app, ENTRYPOINT node, CMD `dist/webhook/main.mjs` (the webhook; the controller container's args
// are `dist/controller/main.mjs`, the DaemonSet's its own), USER 65532 (runAsNonRoot). Nothing is written inside
// the image at run time, so it runs with a read-only root filesystem.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { BUNDLES, bundlesBuilt, type Bundle } from './bundles.js';
import { VERSION } from '../shared/version.js';

const run = promisify(execFile);
/** The image's name, and its tag in the layout: the package version. */
export const KRUISE_TS_IMAGE = { name: 'kruise-ts/manager', tag: VERSION };

export interface KruiseTsImage {
  name: string;
  tag: string;
  /** The OCI layout directory. */
  layout: string;
  /** `oci:<layout>:<tag>`, the skopeo source. */
  ociRef: string;
}

/** Layouts are cached by content outside the repo (other worktrees share the cache). */
export const defaultImageCacheDir = (): string => join(homedir(), '.cache', 'kruise-ts', 'images');
const APP_DIRS = ['shared', 'webhook', 'controller', 'daemon', 'certs', 'bin'];
const APP_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];
/** Build outputs put into the app layer (relative to the repo): every bundle and what it reads beside itself. */
const BUNDLE_FILES = Object.values(BUNDLES).flatMap((b: Bundle) => [b.out, ...b.assets.map(([, to]) => to), ...(b.workers ?? []).map(([, out]) => out)]);
const NONROOT = '65532';
/** Part of the cache key, so a config change rebuilds the image. */
const CONFIG_ARGS = ['--config.workingdir', '/app', '--config.user', `${NONROOT}:${NONROOT}`,
  '--config.env', 'PATH=/usr/bin', '--config.env', 'NODE_ENV=production',
  // ENTRYPOINT node, so manifests/ can pick the app with args alone (the controller container) or replace both.
  '--config.entrypoint', 'node', '--config.cmd', 'dist/webhook/main.mjs'];

/** Host files the node binary needs: itself and every shared library ldd resolves (plus the loader). */
function nodeRuntimeFiles(node: string): string[] {
  const out = execFileSync('ldd', [node], { encoding: 'utf8' });
  const libs = [...out.matchAll(/(\/\S+) \(0x/g)].map((m) => m[1] as string);
  return [node, ...libs];
}

/** Top-level production packages (nested node_modules come along inside them). */
function productionPackages(repoRoot: string): string[] {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--parseable', '--all'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const nm = join(repoRoot, 'node_modules');
  return [...new Set(out.split('\n').filter((p) => p.startsWith(`${nm}/`)).map((p) => relative(repoRoot, p))
    .filter((p) => !p.slice('node_modules/'.length).includes('/node_modules/')))].sort();
}

function appFiles(repoRoot: string): string[] {
  const out = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '--', ...APP_DIRS, ...APP_FILES], { cwd: repoRoot, encoding: 'utf8' });
  return out.split('\n').filter((f) => f && !f.endsWith('.test.ts') && existsSync(join(repoRoot, f))).sort();
}

function hashFiles(files: string[], root = '/'): string {
  const h = createHash('sha256');
  for (const f of files) h.update(`${f}\0`).update(readFileSync(join(root, f))).update('\0');
  return h.digest('hex').slice(0, 16);
}

/** A reproducible tar of `dir` (root-owned, fixed mtime), the form `umoci raw add-layer` takes. */
async function tarDir(dir: string, out: string): Promise<void> {
  await run('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-C', dir, '-cf', out, '.'], { maxBuffer: 1 << 24 });
}

async function buildRuntimeLayout(repoRoot: string, cacheDir: string): Promise<string> {
  const node = realpathSync(process.execPath);
  const host = nodeRuntimeFiles(node);
  const pkgs = productionPackages(repoRoot);
  const st = statSync(node);
  const key = createHash('sha256').update(JSON.stringify({ v: 2, host, size: st.size, mtime: st.mtimeMs, pkgs }))
    .update(readFileSync(join(repoRoot, 'package-lock.json'))).digest('hex').slice(0, 16);
  const layout = join(cacheDir, `kruise-ts-runtime-${key}`);
  if (existsSync(join(layout, 'index.json'))) {
    touch(layout);
    return layout;
  }
  const work = mkdtempSync(join(cacheDir, '.build-runtime-'));
  try {
    const root = join(work, 'rootfs');
    for (const d of ['tmp', 'etc', 'app']) mkdirSync(join(root, d), { recursive: true });
    chmodSync(join(root, 'tmp'), 0o1777);
    for (const f of host) {
      mkdirSync(join(root, dirname(f)), { recursive: true });
      copyFileSync(f, join(root, f === node ? '/usr/bin/node' : f));
    }
    chmodSync(join(root, 'usr/bin/node'), 0o755);
    for (const p of pkgs) cpSync(join(repoRoot, p), join(root, 'app', p), { recursive: true, dereference: false });
    writeFileSync(join(root, 'etc/passwd'), `root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:${NONROOT}:${NONROOT}:nonroot:/app:/sbin/nologin\n`);
    writeFileSync(join(root, 'etc/group'), `root:x:0:\nnonroot:x:${NONROOT}:\n`);
    const tmpLayout = join(work, 'layout');
    const img = `${tmpLayout}:${KRUISE_TS_IMAGE.tag}`;
    await run('umoci', ['init', '--layout', tmpLayout]);
    await run('umoci', ['new', '--image', img]);
    await tarDir(root, join(work, 'runtime.tar'));
    await run('umoci', ['raw', 'add-layer', '--image', img, join(work, 'runtime.tar')]);
    if (!existsSync(join(layout, 'index.json'))) renameSync(tmpLayout, layout);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return layout;
}

const touch = (dir: string) => { const now = new Date(); utimesSync(dir, now, now); };

/** Every source change leaves a ~65 MB layout; those unused for a day go (other worktrees share the cache). */
function pruneStale(cacheDir: string, keep: string[], maxAgeMs = 24 * 3600_000): void {
  for (const e of readdirSync(cacheDir)) {
    const p = join(cacheDir, e);
    if (!e.startsWith('kruise-ts-') || keep.includes(p)) continue;
    try {
      if (Date.now() - statSync(p).mtimeMs > maxAgeMs) rmSync(p, { recursive: true, force: true });
    } catch { /* removed meanwhile */ }
  }
}

/** Builds (or reuses) the image for the sources as they are on disk now. */
export async function buildKruiseTsImage(repoRoot: string, cacheDir = defaultImageCacheDir()): Promise<KruiseTsImage> {
  mkdirSync(cacheDir, { recursive: true });
  const runtime = await buildRuntimeLayout(repoRoot, cacheDir);
  await bundlesBuilt(repoRoot);
  const files = [...appFiles(repoRoot), ...BUNDLE_FILES];
  const appKey = createHash('sha256').update(hashFiles(files, repoRoot)).update(JSON.stringify(CONFIG_ARGS)).digest('hex').slice(0, 16);
  const layout = join(cacheDir, `kruise-ts-${relative(cacheDir, runtime).slice('kruise-ts-runtime-'.length)}-${appKey}`);
  const spec = { name: KRUISE_TS_IMAGE.name, tag: KRUISE_TS_IMAGE.tag };
  const ociRef = `oci:${layout}:${spec.tag}`;
  const image: KruiseTsImage = { ...spec, layout, ociRef };
  pruneStale(cacheDir, [runtime, layout]);
  if (existsSync(join(layout, 'index.json'))) {
    touch(layout);
    return image;
  }
  const work = mkdtempSync(join(cacheDir, '.build-kruise-ts-'));
  try {
    const tmpLayout = join(work, 'layout');
    cpSync(runtime, tmpLayout, { recursive: true });
    const root = join(work, 'rootfs');
    for (const f of files) {
      mkdirSync(join(root, 'app', dirname(f)), { recursive: true });
      copyFileSync(join(repoRoot, f), join(root, 'app', f));
    }
    await tarDir(root, join(work, 'app.tar'));
    const img = `${tmpLayout}:${spec.tag}`;
    await run('umoci', ['raw', 'add-layer', '--image', img, join(work, 'app.tar')]);
    await run('umoci', ['config', '--image', img, ...CONFIG_ARGS]);
    await run('umoci', ['gc', '--layout', tmpLayout]);
    if (!existsSync(join(layout, 'index.json'))) renameSync(tmpLayout, layout);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return image;
}

const skopeo = (args: string[]) => run('skopeo', args, { timeout: 120_000, maxBuffer: 1 << 24 });

/**
 * A docker-archive tarball (`docker save` format, tagged `name:tag`), which `ctr images import`, `kind load
 * image-archive` and `docker load` all take.
 */
export async function writeArchive(image: KruiseTsImage, file: string, ref = `${image.name}:${image.tag}`): Promise<void> {
  rmSync(file, { force: true });
  await skopeo(['copy', '--quiet', image.ociRef, `docker-archive:${file}:${ref}`]);
}

/** Copies the image to a skopeo destination such as `docker://registry.example.com/kruise-ts:0.1.0`. */
export async function pushImageTo(image: KruiseTsImage, dest: string, opts: { tlsVerify?: boolean; creds?: string } = {}): Promise<void> {
  const args = ['copy', '--quiet'];
  if (opts.tlsVerify === false) args.push('--dest-tls-verify=false');
  if (opts.creds) args.push('--dest-creds', opts.creds);
  await skopeo([...args, image.ociRef, dest]);
}

/** What a pull transfers: the manifest's config and its compressed layers. */
export function imageSize(image: KruiseTsImage): { compressed: number; layers: number } {
  const blob = (digest: string) => join(image.layout, 'blobs', ...digest.split(':'));
  const index = JSON.parse(readFileSync(join(image.layout, 'index.json'), 'utf8')) as { manifests: { digest: string; annotations?: Record<string, string> }[] };
  const m = index.manifests.find((x) => x.annotations?.['org.opencontainers.image.ref.name'] === image.tag);
  if (!m) throw new Error(`tag ${image.tag} not in ${image.layout}`);
  const manifest = JSON.parse(readFileSync(blob(m.digest), 'utf8')) as { config: { size: number }; layers: { size: number }[] };
  return { compressed: manifest.config.size + manifest.layers.reduce((a, l) => a + l.size, 0), layers: manifest.layers.length };
}
