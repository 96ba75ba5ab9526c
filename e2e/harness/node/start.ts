// A real node for the harness cluster: kubelet v1.34 + a private containerd 1.6 + runc + the CNI bridge
// plugin, pulling from a loopback registry that mirrors docker.io. The runtime side starts while the control
// plane is still coming up; the kubelet joins once it is (guides/real-cluster.md §3, §9).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { k8sMinor } from '../cluster/k8s-version.js';
import { issueClientCert, kubeconfig } from '../cluster/pki.js';
import { mirrorRegistry, SANDBOX_IMAGE_NAME, SANDBOX_IMAGE_TAG, startContainerd } from '../runtime/containerd.js';
import { buildTestImage, pushImage } from '../runtime/image.js';
import { freePort, spawnDaemon, waitFor } from '../runtime/process.js';
import { startRegistry } from '../runtime/registry.js';
import { addHostsLine, createCgroupRoot, hostsLine, readSysctls, SHIM_DIRS } from './host.js';
import { kubeletConfig } from './kubelet-config.js';
import { startKubeProxy } from './kube-proxy.js';
import { choosePodNetwork, confList, createPodBridge, gatewayAddress } from './network.js';
import { stopRealNode, type RealNodeState } from './stop.js';

/** Pods land here only when they ask (nodeName, or a toleration plus a selector); kwok's fake nodes keep the rest. */
export const REAL_NODE_TAINT = { key: 'kruise-ts.io/real-node', value: 'true', effect: 'NoSchedule' } as const;
export const REAL_NODE_LABEL = 'kruise-ts.io/real-node';

/** Registries whose image names the examples use unqualified or fully qualified; all are served locally. */
const MIRRORED = ['docker.io', 'registry.k8s.io', 'quay.io', 'ghcr.io', 'gcr.io'];

export interface ControlPlaneRef { server: string; pkiDir: string; kubeconfig: string }

export interface RealNodeOptions {
  /** From `prepareRealNode`: the run directory and the pod bridge, which exist before the control plane starts. */
  state: RealNodeState;
  /** Directory with the kubelet binary. */
  bin: string;
  /** Where the kubelet's log goes (the cluster's log directory). */
  logDir: string;
  controlPlane: Promise<ControlPlaneRef>;
  /** Pushes images into the node's registry before the kubelet starts (stand-ins for docker.io images). */
  seedImages?: (registryHost: string) => Promise<unknown>;
  /** Called whenever more of the node exists, so a crash mid-start still leaves a state to tear down. */
  onState?: (s: RealNodeState) => void;
}

export interface RealNode { state: RealNodeState; stop(opts?: { keepLogsIn?: string }): Promise<void> }

const kubectl = (kc: string, args: string[]) => execFileSync('kubectl', ['--kubeconfig', kc, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * The node's run directory and its pod bridge with the gateway address, synchronously, before the control plane:
 * the apiserver binds that address (`apiAddress`), which pods reach through Service `kubernetes`. `onState` gets the
 * state before the bridge exists, so a `down` removes it whatever happens next.
 */
export function prepareRealNode(name: string, onState?: (s: RealNodeState) => void): { state: RealNodeState; apiAddress: string } {
  // In memory: unpacked images are thousands of files, and removing them from a loaded CI disk took ~10 s.
  const dir = mkdtempSync('/dev/shm/kts-node-');
  // Deepest first, so removing them in order works.
  const createdDirs = [...SHIM_DIRS, '/var/log/containers', '/var/lib/cni/results', '/var/lib/cni'].filter((d) => !existsSync(d));
  const s: RealNodeState = { name, dir, createdDirs, network: choosePodNetwork(process.pid, join(dir, 'ipam')) };
  onState?.(s);
  createPodBridge(s.network!);
  return { state: s, apiAddress: gatewayAddress(s.network!) };
}

export async function startRealNode(opts: RealNodeOptions): Promise<RealNode> {
  const s = opts.state;
  const record = () => opts.onState?.(s);
  record();
  try {
    await startRuntime(s, opts);
    const cp = await opts.controlPlane;
    await joinKubelet(s, opts, cp, record);
    s.kubeProxy = await startKubeProxy({ bin: opts.bin, dir: join(s.dir, 'kubelet'), logDir: opts.logDir, pkiDir: cp.pkiDir,
      server: cp.server, node: s.name, net: s.network!, onPid: (k) => { s.kubeProxy = k; record(); } });
    record();
  } catch (err) {
    const tail = s.kubelet ? `\n--- kubelet ---\n${tailOf(s.kubelet.log)}` : '';
    await stopRealNode(s, { keepLogsIn: opts.logDir });
    throw new Error(`real node ${s.name}: ${err instanceof Error ? err.message : String(err)}${tail}`);
  }
  return { state: s, stop: (o) => stopRealNode(s, o) };
}

async function startRuntime(s: RealNodeState, opts: RealNodeOptions): Promise<void> {
  const record = () => opts.onState?.(s);
  const registry = await startRegistry({ dir: join(s.dir, 'registry') });
  s.registry = { host: registry.host, pid: registry.daemon.pid };
  record();
  const pause = await buildTestImage({ name: SANDBOX_IMAGE_NAME, tag: SANDBOX_IMAGE_TAG, cmd: ['sleep', '2147483647'] });
  await Promise.all([pushImage(pause, registry.host), opts.seedImages?.(registry.host)]);

  const ctdDir = join(s.dir, 'containerd');
  // The pid is recorded as soon as startContainerd returns; a failure inside it stops its own daemon.
  const ctd = await startContainerd({ dir: ctdDir, registry, cniConfList: confList(s.network!) });
  s.containerd = { pid: ctd.daemon.pid, socket: ctd.socket, dir: ctdDir };
  record();
  for (const upstream of MIRRORED) mirrorRegistry(ctdDir, upstream, registry.host);
}

async function joinKubelet(s: RealNodeState, opts: RealNodeOptions, cp: ControlPlaneRef, record: () => void): Promise<void> {
  const kdir = join(s.dir, 'kubelet');
  mkdirSync(kdir, { recursive: true });
  const cert = issueClientCert(cp.pkiDir, `kubelet-${s.name}`, `/O=system:nodes/CN=system:node:${s.name}`);
  const kc = join(kdir, 'kubeconfig');
  writeFileSync(kc, kubeconfig(cp.server, join(cp.pkiDir, 'ca.crt'), cert));
  const [port, healthzPort] = [await freePort(), await freePort()];
  s.cgroupRoot = `/kruise-ts-${basename(s.dir)}`;
  s.podLogsDir = join(s.dir, 'pod-logs');
  s.sysctls = readSysctls();
  s.hostsLine = hostsLine(s.name, `kruise-ts ${basename(s.dir)}`);
  record();
  createCgroupRoot(s.cgroupRoot);
  addHostsLine(s.hostsLine);
  const config = join(kdir, 'config.json');
  writeFileSync(config, JSON.stringify(kubeletConfig({
    socket: s.containerd!.socket, port, healthzPort, clientCaFile: join(cp.pkiDir, 'ca.crt'), cgroupRoot: s.cgroupRoot,
    podLogsDir: s.podLogsDir, volumePluginDir: join(kdir, 'volume-plugins'), taints: [REAL_NODE_TAINT], minor: k8sMinor(),
  }), null, 2));
  const log = join(opts.logDir, `kubelet-${s.name}.log`);
  const d = spawnDaemon('kubelet', join(opts.bin, 'kubelet'), [
    `--config=${config}`, `--kubeconfig=${kc}`, `--hostname-override=${s.name}`,
    `--root-dir=${join(kdir, 'root')}`, `--cert-dir=${join(kdir, 'pki')}`,
    `--node-labels=${REAL_NODE_LABEL}=true`, '--v=1',
  ], log);
  s.kubelet = { pid: d.pid, port, healthzPort, log };
  record();
  const up = () => d.child.exitCode === null;
  await waitFor('kubelet /healthz', async () => (await fetch(`http://127.0.0.1:${healthzPort}/healthz`)).ok, 60_000, up);
  await waitFor(`node ${s.name} Ready`, async () => {
    const out = kubectl(cp.kubeconfig, ['get', 'node', s.name, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']);
    return out.trim() === 'True';
  }, 90_000, up);
}

function tailOf(file: string, lines = 25): string {
  try { return execFileSync('tail', ['-n', String(lines), file], { encoding: 'utf8' }); } catch { return ''; }
}
