// Offline stand-ins for the Docker Hub images the seed examples name, built with umoci from the host's static
// busybox and pushed under the same repository and tag, so a containerd that mirrors docker.io to the loopback
// registry runs the examples unchanged. Each tag has its own content (and so its own digest): an image change
// in an example must change the imageID the kubelet reports, as with the real images.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildTestImage, defaultImageCacheDir, pushImage, type TestImageSpec } from '../runtime/image.js';

const run = promisify(execFile);
const here = import.meta.dirname;
const SIDECAR_SRC = join(here, 'hotupgrade-sidecar');

const stamp = (ref: string) => ({ '/etc/kruise-ts-stand-in': `stand-in for ${ref}, built by e2e/harness/images\n` });

function busybox(tag: string): TestImageSpec {
  return { name: 'library/busybox', tag, allApplets: true, cmd: ['sh'], files: stamp(`busybox:${tag}`) };
}

/** busybox httpd behind an `nginx` command, so the image's own CMD (`nginx -g 'daemon off;'`) works as upstream's. */
function nginx(tag: string): TestImageSpec {
  return {
    name: 'library/nginx', tag, allApplets: true, cmd: ['nginx', '-g', 'daemon off;'],
    files: {
      ...stamp(`nginx:${tag}`),
      '/usr/share/nginx/html/index.html': `<!DOCTYPE html>\n<html><head><title>Welcome to nginx!</title></head>\n<body><h1>Welcome to nginx!</h1><p>kruise-ts stand-in for nginx:${tag} (busybox httpd)</p></body></html>\n`,
      // -f: foreground; -v: one log line per request on stderr, so `kubectl logs` shows traffic.
      '/usr/sbin/nginx': '#!/bin/sh\nexec httpd -f -v -p 80 -h /usr/share/nginx/html\n',
    },
    env: { PATH: '/usr/sbin:/bin' },
  };
}

function hotUpgradeSidecar(tag: string, version: string, binary: string): TestImageSpec {
  return {
    name: 'openkruise/hotupgrade-sample', tag, allApplets: true, entrypoint: ['/manager'], cmd: [],
    hostFiles: { '/manager': binary, '/migrate.sh': join(SIDECAR_SRC, 'migrate.sh') },
    files: { ...stamp(`openkruise/hotupgrade-sample:${tag}`), '/sidecar-version': `${version}\n` },
  };
}

/** The sidecar stand-in is a small static Go program (the hand-over passes a socket, which busybox cannot). */
async function buildSidecarBinary(cacheDir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const f of ['go.mod', 'main.go']) hash.update(readFileSync(join(SIDECAR_SRC, f)));
  const out = join(cacheDir, `hotupgrade-sidecar-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(out)) return out;
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  await run('go', ['build', '-trimpath', '-ldflags', '-s -w', '-o', tmp, '.'], {
    cwd: SIDECAR_SRC, env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod' }, timeout: 300_000,
  });
  renameSync(tmp, out);
  return out;
}

/** Every stand-in, by the name pods use (docker.io implied). */
export async function standInImages(cacheDir = defaultImageCacheDir()): Promise<TestImageSpec[]> {
  const sidecar = await buildSidecarBinary(cacheDir);
  return [
    busybox('latest'), busybox('1.35.0'), busybox('1.36.0'),
    nginx('1.7.9'), nginx('1.9.1'), nginx('alpine'),
    { name: 'library/ubuntu', tag: 'latest', allApplets: true, cmd: ['sh'],
      files: { ...stamp('ubuntu:latest'), '/etc/os-release': 'NAME="Ubuntu"\nID=ubuntu\nPRETTY_NAME="kruise-ts stand-in (busybox)"\n' } },
    hotUpgradeSidecar('sidecarv1', 'v1', sidecar), hotUpgradeSidecar('sidecarv2', 'v2', sidecar), hotUpgradeSidecar('empty', 'empty', sidecar),
    { name: 'openkruise/hotupgrade-sample', tag: 'busybox', allApplets: true, entrypoint: ['/bin/sh', '/app.sh'], cmd: [],
      files: { ...stamp('openkruise/hotupgrade-sample:busybox'), '/app.sh': readFileSync(join(SIDECAR_SRC, 'app.sh'), 'utf8') } },
  ];
}

/** Builds (cached) and pushes every stand-in to `registryHost`; returns the pushed references. */
export async function pushStandInImages(registryHost: string, cacheDir = defaultImageCacheDir()): Promise<string[]> {
  const specs = await standInImages(cacheDir);
  return Promise.all(specs.map(async (spec) => pushImage(await buildTestImage(spec, cacheDir), registryHost)));
}
