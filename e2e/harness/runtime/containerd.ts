// A private containerd 1.6 (CRI plugin, config version 2) under a per-run directory: own root, state,
// socket and CNI dir so it cannot collide with a containerd the host may already run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectCri } from '../../../daemon/cri/grpc-runtime.js';
import type { RuntimeVersion } from '../../../daemon/cri/runtime.js';
import { spawnDaemon, waitFor, type Daemon } from './process.js';
import type { Registry } from './registry.js';
import { KubeletCri } from './test-cri.js';

export const SANDBOX_IMAGE_NAME = 'pause';
export const SANDBOX_IMAGE_TAG = '3.10';

export interface Containerd {
  /** Absolute path of the CRI socket. */
  socket: string;
  dir: string;
  version: RuntimeVersion;
  /** The running process; replaced by restart(). */
  daemon: Daemon;
  /** SIGTERM containerd alone (containers, images and state stay), start it again on the same config. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface ContainerdOptions {
  /** Per-run directory; keep it short, unix socket paths are limited to 107 bytes. */
  dir: string;
  registry: Registry;
  bin?: string;
  readyTimeoutMs?: number;
  /** A CNI conflist written into the private CNI dir before start (a kubelet node needs one to be Ready). */
  cniConfList?: string;
}

function configToml(dir: string, registryHost: string): string {
  const cri = 'plugins."io.containerd.grpc.v1.cri"';
  return `version = 2
root = "${dir}/root"
state = "${dir}/state"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.tracing.processor.v1.otlp"]

[grpc]
  address = "${dir}/containerd.sock"
[ttrpc]
  address = "${dir}/containerd.sock.ttrpc"
[debug]
  address = ""
[metrics]
  address = ""

[plugins."io.containerd.internal.v1.opt"]
  path = "${dir}/opt"

[${cri}]
  sandbox_image = "${registryHost}/${SANDBOX_IMAGE_NAME}:${SANDBOX_IMAGE_TAG}"
  # Without this runc fails with "can't get final child's PID from pipe: EOF": raising oom_score_adj to
  # kubelet's -998 is denied in this environment (guides/real-cluster.md R5).
  restrict_oom_score_adj = true
  # Pod netns bind mounts under our state dir (not /var/run/netns), so teardown finds and unmounts them.
  netns_mounts_under_state_dir = true
  [${cri}.cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${dir}/cni"
  [${cri}.containerd]
    default_runtime_name = "runc"
    [${cri}.containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [${cri}.containerd.runtimes.runc.options]
        SystemdCgroup = false
  [${cri}.registry]
    config_path = "${dir}/certs.d"
`;
}

/** hosts.toml that makes the loopback registry a plain-HTTP mirror of itself. */
function hostsToml(host: string): string {
  return `server = "http://${host}"\n\n[host."http://${host}"]\n  capabilities = ["pull", "resolve"]\n  skip_verify = true\n`;
}

/** Lets containerd pull from another loopback registry over HTTP; read per pull, so no restart needed. */
export function trustRegistry(containerdDir: string, registryHost: string): void {
  mkdirSync(join(containerdDir, 'certs.d', registryHost), { recursive: true });
  writeFileSync(join(containerdDir, 'certs.d', registryHost, 'hosts.toml'), hostsToml(registryHost));
}

/**
 * Serves pulls of `upstream` (e.g. docker.io) from the loopback registry. `server` is the loopback registry
 * too, so a missing image fails fast instead of falling back to the internet.
 */
export function mirrorRegistry(containerdDir: string, upstream: string, registryHost: string): void {
  mkdirSync(join(containerdDir, 'certs.d', upstream), { recursive: true });
  writeFileSync(join(containerdDir, 'certs.d', upstream, 'hosts.toml'), hostsToml(registryHost));
}

export async function startContainerd(opts: ContainerdOptions): Promise<Containerd> {
  const { dir } = opts;
  for (const d of ['root', 'state', 'cni', 'opt', 'logs']) mkdirSync(join(dir, d), { recursive: true });
  trustRegistry(dir, opts.registry.host);
  if (opts.cniConfList) writeFileSync(join(dir, 'cni', '10-kruise-ts.conflist'), opts.cniConfList);
  const config = join(dir, 'config.toml');
  writeFileSync(config, configToml(dir, opts.registry.host));
  const socket = join(dir, 'containerd.sock');
  const ownCgroups = namespaceCgroups().filter((c) => !existsSync(c));
  const launch = () => spawnDaemon('containerd', opts.bin ?? 'containerd', ['--config', config, '--log-level', 'info'], join(dir, 'containerd.log'));
  const first = launch();
  const version = await waitReady(first, socket, opts.readyTimeoutMs);
  const ctd: Containerd = {
    socket, dir, version, daemon: first,
    async restart() {
      await ctd.daemon.stop();
      ctd.daemon = launch();
      await waitReady(ctd.daemon, socket, opts.readyTimeoutMs);
    },
    stop: () => stopContainerd(dir, socket, ctd.daemon, ownCgroups),
  };
  return ctd;
}

async function waitReady(daemon: Daemon, socket: string, timeoutMs = 20_000): Promise<RuntimeVersion> {
  const cri = connectCri({ endpoint: socket, defaultTimeoutMs: 2_000 });
  try {
    return await waitFor('containerd CRI', () => cri.runtime.version(), timeoutMs, () => daemon.child.exitCode === null);
  } catch (err) {
    await daemon.stop();
    throw new Error(`${(err as Error).message}\n${daemon.tail()}`);
  } finally {
    cri.close();
  }
}

/**
 * runc (cgroupfs driver, no cgroup_parent) puts containers in /<cgroup controller>/k8s.io/<id> and removes
 * only the leaf, so the k8s.io parents we caused are removed at teardown, and only if they are empty.
 */
export function namespaceCgroups(): string[] {
  try {
    return readdirSync('/sys/fs/cgroup').map((c) => join('/sys/fs/cgroup', c, 'k8s.io'));
  } catch {
    return [];
  }
}

/** Shims outlive containerd (they are detached by design), so they are found by our socket in their argv. */
export function shimPids(socket: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.includes('containerd-shim') && argv.includes(socket)) pids.push(Number(entry));
    } catch { /* exited meanwhile */ }
  }
  return pids;
}

/** Mount points under `dir`, deepest first (rootfs overlays, sandbox shm). */
export function mountsUnder(dir: string): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4]?.replace(/\\040/g, ' '))
    .filter((m): m is string => !!m && (m === dir || m.startsWith(`${dir}/`)))
    .sort((a, b) => b.length - a.length);
}

async function stopContainerd(dir: string, socket: string, daemon: Daemon, ownCgroups: string[]): Promise<void> {
  if (daemon.child.exitCode === null) {
    const kubelet = new KubeletCri(socket, join(dir, 'logs'));
    try { await kubelet.removeAllSandboxes(); } catch { /* best effort; shims are killed below */ } finally { kubelet.close(); }
  }
  await daemon.stop(5_000);
  removeContainerdLeftovers(dir, socket, ownCgroups);
}

/** After containerd exited: kill its shims, unmount what it left under `dir`, remove `dir`. */
export function removeContainerdLeftovers(dir: string, socket: string, ownCgroups: string[] = []): void {
  for (const pid of shimPids(socket)) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
  for (const m of mountsUnder(dir)) {
    try { execFileSync('umount', ['-l', m], { stdio: 'ignore' }); } catch { /* already unmounted */ }
  }
  for (const cg of ownCgroups) {
    try { rmdirSync(cg); } catch { /* absent, or in use by someone else */ }
  }
  rmSync(dir, { recursive: true, force: true });
}
