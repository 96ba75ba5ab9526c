// The image's Node.js: the npm package node-linux-<arch> at the version package.json's engines names, checked
// against the integrity package-lock.json records (npm ci installs the host's one the same way: node_modules/.bin/node).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Platform } from './platforms.js';

const run = promisify(execFile);

export interface NodePin {
  name: string;
  version: string;
  /** package-lock's `sha512-<base64>` of the tarball. */
  integrity: string;
}

interface Lock { packages: Record<string, { version?: string; integrity?: string }> }

/** The pinned Node for `p`, from package.json's engines and package-lock.json (which must agree). */
export function nodePin(repoRoot: string, p: Platform): NodePin {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Lock;
  const name = `node-linux-${p.npm}`;
  const e = lock.packages[`node_modules/${name}`];
  if (!e?.version || !e.integrity) throw new Error(`package-lock.json has no ${name} with an integrity`);
  if (pkg.engines?.node !== e.version) throw new Error(`package.json engines.node ${pkg.engines?.node} is not the locked ${name} ${e.version}`);
  return { name, version: e.version, integrity: e.integrity };
}

/** `sha512-<base64>` of a file, as npm writes integrity. */
export function integrityOf(file: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/**
 * The pinned package unpacked under `cacheDir` (bin/node, LICENSE), fetched with `npm pack` once and checked
 * against the lock's integrity; returns its directory.
 */
export async function fetchNode(pin: NodePin, cacheDir: string): Promise<string> {
  const dir = join(cacheDir, 'node', `${pin.name}-${pin.version}-${createHash('sha256').update(pin.integrity).digest('hex').slice(0, 12)}`);
  if (existsSync(join(dir, 'bin', 'node'))) return dir;
  mkdirSync(join(cacheDir, 'node'), { recursive: true });
  const work = mkdtempSync(join(cacheDir, 'node', '.fetch-'));
  try {
    const { stdout } = await run('npm', ['pack', '--silent', `${pin.name}@${pin.version}`], { cwd: work, timeout: 600_000 });
    const tgz = join(work, stdout.trim().split('\n').pop() ?? '');
    const got = integrityOf(tgz);
    if (got !== pin.integrity) throw new Error(`${pin.name}@${pin.version}: integrity ${got} is not the locked ${pin.integrity}`);
    mkdirSync(join(work, 'x'));
    await run('tar', ['-xzf', tgz, '-C', join(work, 'x'), '--strip-components=1', 'package/bin/node', 'package/LICENSE']);
    if (!existsSync(dir)) renameSync(join(work, 'x'), dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
}
