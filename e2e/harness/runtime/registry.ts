// A docker-registry (distribution 2.8) on 127.0.0.1:<free port> with its own config. Debian's packaged
// config listens on all interfaces and has a broken htpasswd block, so it is never used.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, spawnDaemon, waitFor, type Daemon } from './process.js';

export interface RegistryAuth {
  username: string;
  password: string;
}

export interface Registry {
  /** `127.0.0.1:<port>`, the prefix of image references. */
  host: string;
  auth?: RegistryAuth;
  daemon: Daemon;
  stop(): Promise<void>;
}

/** distribution's htpasswd accepts only bcrypt; Debian's python3 reaches libxcrypt's bcrypt through `crypt`. */
function bcrypt(password: string): string {
  // Cost 4 (rounds=16): the registry verifies the hash on every request, and cost 12 costs ~0.25 s each.
  const script = 'import crypt,sys\nprint(crypt.crypt(sys.stdin.read(), crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))';
  const python = ['/usr/bin/python3', 'python3'].find((p) => {
    try { execFileSync(p, ['-W', 'ignore', '-c', 'import crypt'], { stdio: 'ignore' }); return true; } catch { return false; }
  });
  if (!python) throw new Error('registry auth needs python3 with the crypt module to write a bcrypt htpasswd');
  return execFileSync(python, ['-W', 'ignore', '-c', script], { input: password, encoding: 'utf8' }).trim();
}

export async function startRegistry(opts: { dir: string; auth?: RegistryAuth; bin?: string }): Promise<Registry> {
  mkdirSync(join(opts.dir, 'data'), { recursive: true });
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const lines = [
    'version: 0.1',
    'log:', '  level: info', '  accesslog:', '    disabled: true',
    'storage:', `  filesystem:`, `    rootdirectory: ${join(opts.dir, 'data')}`, '  delete:', '    enabled: true',
    'http:', `  addr: ${host}`,
  ];
  if (opts.auth) {
    const htpasswd = join(opts.dir, 'htpasswd');
    writeFileSync(htpasswd, `${opts.auth.username}:${bcrypt(opts.auth.password)}\n`, { mode: 0o600 });
    lines.push('auth:', '  htpasswd:', '    realm: kruise-ts-test', `    path: ${htpasswd}`);
  }
  const config = join(opts.dir, 'config.yml');
  writeFileSync(config, lines.join('\n') + '\n');
  const daemon = spawnDaemon('registry', opts.bin ?? 'docker-registry', ['serve', config], join(opts.dir, 'registry.log'));
  try {
    // With auth, /v2/ answers 401 once the registry is up; either status proves it is serving.
    await waitFor(`registry ${host}`, async () => {
      const res = await fetch(`http://${host}/v2/`);
      return res.status === 200 || (!!opts.auth && res.status === 401);
    }, 15_000, () => daemon.child.exitCode === null);
  } catch (err) {
    await daemon.stop();
    throw new Error(`${(err as Error).message}\n${daemon.tail()}`);
  }
  return { host, auth: opts.auth, daemon, stop: () => daemon.stop() };
}
