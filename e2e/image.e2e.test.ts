// `npm run image`'s image as a user receives it: the docker-archive it writes imports into a containerd of its own
// (`ctr images import`, what `kind load image-archive` runs), and its config and layers are what the manifests
// assume: non-root, node as the entrypoint, no shell. The local cluster already runs this image on its real node.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildKruiseTsImage, imageSize, writeArchive, type KruiseTsImage } from '../scripts/image.js';
import { VERSION } from '../shared/version.js';
import { waitFor } from './harness/runtime/process.js';

const repo = join(import.meta.dirname, '..');
const skip = process.getuid?.() !== 0 ? 'containerd needs root' : !existsSync('/usr/bin/ctr') ? 'no ctr (apt package containerd)' : false;

describe('npm run image', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kts-image-'));
  const sock = join(dir, 'containerd.sock');
  let image: KruiseTsImage;
  let containerd: ReturnType<typeof spawn> | undefined;
  const ctr = (...args: string[]) => execFileSync('ctr', ['-a', sock, ...args], { encoding: 'utf8', timeout: 120_000 });

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
    assert.equal(size.layers, 2);
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
    const mount = join(dir, 'rootfs');
    execFileSync('umoci', ['raw', 'unpack', '--rootless', '--image', `${image.layout}:${image.tag}`, mount], { timeout: 120_000 });
    for (const shell of ['bin/sh', 'bin/busybox', 'usr/bin/sh', 'bin/bash']) assert.equal(existsSync(join(mount, shell)), false, shell);
    for (const f of ['usr/bin/node', 'app/dist/webhook/main.mjs', 'app/dist/webhook/worker.mjs', 'app/dist/controller/main.mjs', 'app/dist/daemon/main.mjs']) assert.ok(existsSync(join(mount, f)), f);
  });
});
