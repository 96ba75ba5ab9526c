// `npm run image`'s image as a user receives it: the docker-archive it writes imports into a containerd of its own
// (`ctr images import`, what `kind load image-archive` runs), and its config and layers are what the manifests
// assume: non-root, node as the entrypoint, no shell; its runtime is the pinned Node on pinned Debian packages, for
// amd64 and arm64, with its SBOM. The local cluster already runs this image on its real node.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildKruiseTsImage, imageSize, platformManifest, writeArchive, type KruiseTsImage } from '../scripts/image.js';
import { elfMachine, PLATFORMS, type Arch } from '../scripts/image/platforms.js';
import { VERSION } from '../shared/version.js';
import { waitFor } from './harness/runtime/process.js';

const repo = join(import.meta.dirname, '..');
const skip = process.getuid?.() !== 0 ? 'containerd needs root' : !existsSync('/usr/bin/ctr') ? 'no ctr (apt package containerd)' : false;

describe('npm run image', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kts-image-'));
  const sock = join(dir, 'containerd.sock');
  let image: KruiseTsImage;
  let containerd: ReturnType<typeof spawn> | undefined;
  const ctr = (...args: string[]) => execFileSync('ctr', ['-a', sock, ...args], { encoding: 'utf8', timeout: 600_000 });

  before(async () => {
    image = await buildKruiseTsImage(repo);
    writeFileSync(join(dir, 'config.toml'), [`version = 2`, `root = "${dir}/root"`, `state = "${dir}/state"`,
      `[grpc]`, `  address = "${sock}"`, `[plugins."io.containerd.grpc.v1.cri"]`, `  disable_tcp_service = true`, ''].join('\n'));
    containerd = spawn('containerd', ['--config', join(dir, 'config.toml')], { stdio: 'ignore' });
    await waitFor('containerd socket', async () => existsSync(sock), 20_000);
  });
  after(() => {
    containerd?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('is tagged with the package version and its size is known', () => {
    assert.equal(image.tag, VERSION);
    const size = imageSize(image);
    assert.equal(size.layers, 5);
    assert.ok(size.compressed > 10e6, `${size.compressed} bytes`);
  });

  it('writes an archive that `ctr images import` takes, as kruise-ts/manager:<version>', async () => {
    const file = join(dir, 'kruise-ts.tar');
    await writeArchive(image, file);
    await waitFor('containerd answers', async () => { try { ctr('version'); return true; } catch { return false; } }, 20_000);
    ctr('images', 'import', file);
    assert.match(ctr('images', 'ls', '-q'), new RegExp(`^docker\\.io/kruise-ts/manager:${VERSION.replace(/\./g, '\\.')}$`, 'm'));
  });

  it('runs node as user 65532 from /app, with no shell or other program in the image', () => {
    const config = JSON.parse(execFileSync('skopeo', ['inspect', '--config', image.ociRef], { encoding: 'utf8' })) as
      { config: { User: string; WorkingDir: string; Entrypoint: string[]; Cmd: string[] } };
    assert.equal(config.config.User, '65532:65532');
    assert.equal(config.config.WorkingDir, '/app');
    assert.deepEqual(config.config.Entrypoint, ['node']);
    assert.deepEqual(config.config.Cmd, ['dist/webhook/main.mjs']);
    const mount = unpack(image, 'amd64', join(dir, 'rootfs-amd64'));
    for (const shell of ['bin/sh', 'bin/busybox', 'usr/bin/sh', 'bin/bash']) assert.equal(existsSync(join(mount, shell)), false, shell);
    for (const f of ['usr/bin/node', 'app/dist/webhook/main.mjs', 'app/dist/webhook/worker.mjs', 'app/dist/controller/main.mjs', 'app/dist/controller/lease-thread.mjs', 'app/dist/daemon/main.mjs', 'app/dist/cli/kruise-ts.mjs']) assert.ok(existsSync(join(mount, f)), f);
    // Bundles and production dependencies only (review N-L6): no TypeScript loader, no esbuild binary, no sources.
    for (const f of ['app/node_modules/tsx', 'app/node_modules/esbuild', 'app/node_modules/@esbuild', 'app/shared', 'app/webhook', 'app/bin']) assert.equal(existsSync(join(mount, f)), false, f);
  });

  it('runs the pinned Node (package.json engines), on the pinned Debian libraries, and its CLI bundle', () => {
    const pinned = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const root = unpack(image, 'amd64', join(dir, 'rootfs-run'));
    const node = (...args: string[]) => execFileSync('/usr/sbin/chroot', ['--userspec=65532:65532', root, '/usr/bin/node', ...args], { encoding: 'utf8', timeout: 60_000, env: { PATH: '/usr/bin' } });
    assert.equal(node('-p', 'process.version').trim(), `v${pinned}`);
    assert.match(node('/app/dist/cli/kruise-ts.mjs', '--help'), /kruise-ts inject/);
    assert.ok(readdirSync(join(root, 'var/lib/dpkg/status.d')).includes('libc6'));
  });

  it('has an arm64 image of arm64 binaries, annotations naming its source, and an SBOM layer listing what is inside', () => {
    const index = JSON.parse(readFileSync(join(image.layout, 'blobs', 'sha256', image.digest.slice(7)), 'utf8')) as
      { manifests: Array<{ platform: { architecture: string } }>; annotations: Record<string, string> };
    assert.deepEqual(index.manifests.map((m) => m.platform.architecture), ['amd64', 'arm64']);
    assert.match(index.annotations['org.opencontainers.image.revision'] ?? '', /^[0-9a-f]{40}(-dirty)?$/);
    assert.equal(index.annotations['org.opencontainers.image.version'], VERSION);
    const arm = unpack(image, 'arm64', join(dir, 'rootfs-arm64'));
    const arm64 = PLATFORMS.find((p) => p.arch === 'arm64')!.elfMachine;
    for (const f of ['usr/bin/node', 'lib/aarch64-linux-gnu/libc.so.6', 'usr/lib/aarch64-linux-gnu/libstdc++.so.6', 'lib/ld-linux-aarch64.so.1']) {
      assert.equal(elfMachine(readFileSync(join(arm, f)).subarray(0, 20)), arm64, f);
    }
    const sbom = JSON.parse(readFileSync(join(arm, 'usr/share/sbom/kruise-ts.cdx.json'), 'utf8')) as { bomFormat: string; components: Array<{ name: string; purl: string; hashes: unknown[] }> };
    assert.equal(sbom.bomFormat, 'CycloneDX');
    const names = sbom.components.map((c) => c.name);
    for (const n of ['node', 'libc6', 'libstdc++6', 'fastify', 'node-forge', '@kubernetes/client-node']) assert.ok(names.includes(n), n);
    assert.ok(!names.includes('tsx') && !names.includes('esbuild'));
    assert.ok(sbom.components.every((c) => c.hashes.length === 1), 'every component has its hash');
    assert.equal(readdirSync(join(arm, 'app/node_modules')).filter((n) => !n.startsWith('.')).length > 50, true);
    // Nothing in the image names the clone it was built in (two clones give one digest): no absolute symlinks.
    const links = execFileSync('find', [join(arm, 'app'), '-type', 'l', '-lname', '/*'], { encoding: 'utf8' });
    assert.equal(links, '');
  });
});

/** The layers of one platform's manifest, unpacked in order into `into` (what a runtime's snapshotter does, minus whiteouts: the image has none). */
function unpack(image: KruiseTsImage, arch: Arch, into: string): string {
  mkdirSync(into, { recursive: true });
  for (const l of platformManifest(image, arch).layers) execFileSync('tar', ['-xzf', join(image.layout, 'blobs', 'sha256', l.digest.slice(7)), '-C', into]);
  return into;
}
