// Test images built offline with umoci from the host's static /bin/busybox, cached as OCI layouts, and
// pushed to the loopback registry with skopeo.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { RegistryAuth } from './registry.js';

const run = promisify(execFile);
const BUSYBOX = '/bin/busybox';
/** Applets linked into /bin so commands like `sh -c`, `sleep` and `env` work without a path. */
const APPLETS = ['sh', 'sleep', 'env', 'cat', 'echo', 'ls', 'true', 'false', 'id', 'hostname', 'ps', 'kill', 'date', 'touch', 'test'];

export interface TestImageSpec {
  name: string;
  tag: string;
  /** Extra files, path inside the image → content (mode 0755 when it starts with `#!`, else 0644). */
  files?: Record<string, string>;
  /** Executables copied from the host, path inside the image → host path (e.g. a static Go binary). */
  hostFiles?: Record<string, string>;
  /** Link every applet the host's busybox has (httpd, wget, seq, …), not only the short default list. */
  allApplets?: boolean;
  cmd?: string[];
  entrypoint?: string[];
  env?: Record<string, string>;
}

export interface BuiltImage {
  spec: TestImageSpec;
  /** `oci:<layout>:<tag>`, the skopeo source. */
  ociRef: string;
}

export const defaultImageCacheDir = (): string => join(homedir(), '.cache', 'kruise-ts', 'test-images');

function cacheKey(spec: TestImageSpec): string {
  const bb = statSync(BUSYBOX);
  const host = Object.values(spec.hostFiles ?? {}).map((f) => createHash('sha256').update(readFileSync(f)).digest('hex'));
  const input = JSON.stringify({ v: 2, spec, applets: APPLETS, busybox: [bb.size, bb.mtimeMs], ...(host.length ? { host } : {}) });
  return createHash('sha256').update(input).digest('hex').slice(0, 16);
}

/** Builds (or reuses from the cache) an OCI layout holding busybox + `files`, configured with `cmd`. */
export async function buildTestImage(spec: TestImageSpec, cacheDir: string = defaultImageCacheDir()): Promise<BuiltImage> {
  const layout = join(cacheDir, `${spec.name.replace(/[^a-z0-9]+/gi, '-')}-${spec.tag}-${cacheKey(spec)}`);
  const ociRef = `oci:${layout}:${spec.tag}`;
  if (existsSync(join(layout, 'index.json'))) return { spec, ociRef };

  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(cacheDir, '.build-'));
  try {
    const tmpLayout = join(work, 'layout');
    const bundle = join(work, 'bundle');
    const img = `${tmpLayout}:${spec.tag}`;
    await run('umoci', ['init', '--layout', tmpLayout]);
    await run('umoci', ['new', '--image', img]);
    await run('umoci', ['unpack', '--image', img, bundle]);
    const rootfs = join(bundle, 'rootfs');
    for (const d of ['bin', 'tmp', 'etc', 'proc', 'sys', 'dev']) mkdirSync(join(rootfs, d), { recursive: true });
    chmodSync(join(rootfs, 'tmp'), 0o1777);
    copyFileSync(BUSYBOX, join(rootfs, 'bin', 'busybox'));
    chmodSync(join(rootfs, 'bin', 'busybox'), 0o755);
    const applets = spec.allApplets ? await allApplets() : APPLETS;
    for (const a of applets) if (a !== 'busybox') symlinkSync('busybox', join(rootfs, 'bin', a));
    writeFileSync(join(rootfs, 'etc', 'passwd'), 'root:x:0:0:root:/:/bin/sh\n');
    for (const [path, content] of Object.entries(spec.files ?? {})) {
      const target = join(rootfs, path);
      mkdirSync(dirname(target), { recursive: true });
      // A script (shebang) is made executable, so it can be an image's command.
      writeFileSync(target, content, { mode: content.startsWith('#!') ? 0o755 : 0o644 });
    }
    for (const [path, hostPath] of Object.entries(spec.hostFiles ?? {})) {
      const target = join(rootfs, path);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(hostPath, target);
      chmodSync(target, 0o755);
    }
    await run('umoci', ['repack', '--image', img, bundle]);
    const cfg = ['config', '--image', img, '--config.workingdir', '/'];
    for (const c of spec.entrypoint ?? []) cfg.push('--config.entrypoint', c);
    for (const c of spec.cmd ?? ['sh']) cfg.push('--config.cmd', c);
    for (const [k, v] of Object.entries({ PATH: '/bin', ...spec.env })) cfg.push('--config.env', `${k}=${v}`);
    await run('umoci', cfg);
    await run('umoci', ['gc', '--layout', tmpLayout]);
    // Another run may have finished the same build meanwhile; either copy is equally good.
    if (!existsSync(join(layout, 'index.json'))) renameSync(tmpLayout, layout);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { spec, ociRef };
}

async function allApplets(): Promise<string[]> {
  const { stdout } = await run(BUSYBOX, ['--list']);
  return stdout.split('\n').filter((a) => /^[\w.[\]-]+$/.test(a));
}

/** Pushes to `<registryHost>/<name>:<tag>` over plain HTTP; returns that reference. */
export async function pushImage(image: BuiltImage, registryHost: string, auth?: RegistryAuth): Promise<string> {
  const ref = `${registryHost}/${image.spec.name}:${image.spec.tag}`;
  const args = ['copy', '--quiet', '--dest-tls-verify=false'];
  if (auth) args.push('--dest-creds', `${auth.username}:${auth.password}`);
  args.push(image.ociRef, `docker://${ref}`);
  await run('skopeo', args, { timeout: 60_000 });
  return ref;
}

/** Digest of the layout's manifest for `tag` (what a runtime reports in repo_digests). */
export function manifestDigest(image: BuiltImage): string {
  const layout = image.ociRef.slice('oci:'.length, image.ociRef.lastIndexOf(':'));
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8')) as { manifests: { digest: string; annotations?: Record<string, string> }[] };
  const m = index.manifests.find((x) => x.annotations?.['org.opencontainers.image.ref.name'] === image.spec.tag);
  if (!m) throw new Error(`tag ${image.spec.tag} not in ${layout}`);
  return m.digest;
}
