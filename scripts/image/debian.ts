// The image's Debian packages: exact versions pinned in debian.lock.json, downloaded with apt-get from Debian's
// archive for each architecture (a private apt state per architecture under the cache, so the host's own apt
// configuration and installed packages play no part; apt checks the archive's signed Release files) and checked
// against the pinned SHA-256s before they are unpacked into the runtime layer.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Arch } from './platforms.js';

const run = promisify(execFile);

export interface DebPin { name: string; version: string; sha256: string }
export interface DebianLock { suite: string; release: string; packages: Record<Arch, DebPin[]> }

export function debianLock(repoRoot: string): DebianLock {
  return JSON.parse(readFileSync(join(repoRoot, 'scripts', 'image', 'debian.lock.json'), 'utf8')) as DebianLock;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const debFile = (dir: string, p: DebPin) => join(dir, `${p.name}_${p.version.replace(/:/g, '%3a')}.deb`);

/** apt-get with its lists, cache and status of its own, for `arch` only. */
function aptArgs(state: string, arch: Arch): string[] {
  return ['-o', `Dir::State::Lists=${join(state, 'lists')}`, '-o', `Dir::Cache=${join(state, 'cache')}`,
    '-o', `APT::Architecture=${arch}`, '-o', `APT::Architectures::=${arch}`, '-o', 'Dir::State::Status=/dev/null',
    '-o', 'APT::Sandbox::User=root', '-o', 'Acquire::Retries=3', '-q'];
}

/** The pinned .deb files for `arch` under `cacheDir` (downloaded once), each checked; returns their paths. */
export async function fetchDebs(lock: DebianLock, arch: Arch, cacheDir: string): Promise<string[]> {
  const pins = lock.packages[arch];
  const dir = join(cacheDir, 'debian', arch);
  const ok = (p: DebPin) => existsSync(debFile(dir, p)) && sha256(debFile(dir, p)) === p.sha256;
  if (pins.every(ok)) return pins.map((p) => debFile(dir, p));
  const state = join(cacheDir, 'debian', `apt-${arch}`);
  for (const d of ['lists/partial', 'cache/archives/partial', 'download']) mkdirSync(join(state, d), { recursive: true });
  mkdirSync(dir, { recursive: true });
  const apt = aptArgs(state, arch);
  await run('apt-get', [...apt, 'update'], { timeout: 600_000, maxBuffer: 1 << 24 });
  const dl = join(state, 'download');
  for (const f of readdirSync(dl)) rmSync(join(dl, f), { force: true });
  try {
    await run('apt-get', [...apt, 'download', ...pins.map((p) => `${p.name}=${p.version}`)], { cwd: dl, timeout: 600_000, maxBuffer: 1 << 24 });
  } catch (err) {
    throw new Error(`apt-get download of the pinned ${arch} packages failed (a pinned version that Debian's archive no longer serves needs a bump in scripts/image/debian.lock.json): ${(err as Error).message}`);
  }
  for (const p of pins) {
    const got = readdirSync(dl).find((f) => f.startsWith(`${p.name}_`) && (f.endsWith(`_${arch}.deb`) || f.endsWith("_all.deb")));
    if (!got) throw new Error(`apt-get download gave no ${p.name} ${p.version} for ${arch}`);
    const hash = sha256(join(dl, got));
    if (hash !== p.sha256) throw new Error(`${p.name} ${p.version} ${arch}: sha256 ${hash} is not the pinned ${p.sha256}`);
    renameSync(join(dl, got), debFile(dir, p));
  }
  return pins.map((p) => debFile(dir, p));
}

/**
 * Unpacks each package into `root` and records it as distroless images do (/var/lib/dpkg/status.d/<name>: the
 * package's control fields), so image scanners find the Debian packages and their versions.
 */
export async function unpackDebs(debs: string[], root: string): Promise<void> {
  mkdirSync(join(root, 'var/lib/dpkg/status.d'), { recursive: true });
  for (const deb of debs) {
    await run('dpkg-deb', ['-x', deb, root]);
    const { stdout } = await run('dpkg-deb', ['-f', deb]);
    const name = /^Package: (\S+)$/m.exec(stdout)?.[1];
    if (!name) throw new Error(`${deb}: no Package field`);
    writeFileSync(join(root, 'var/lib/dpkg/status.d', name), stdout.endsWith('\n') ? stdout : `${stdout}\n`);
  }
}
