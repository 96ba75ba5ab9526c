// A real Kubernetes control plane for e2e tests and the demo: etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler and kwok (fake nodes), each in its own process group and directory under one run folder, on
// ports probed free at start. Everything listens on loopback except the apiserver when given `address` (the real
// node's pod bridge: pods reach it there through Service `kubernetes`; never a public interface).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { killGroups } from '../runtime/process-groups.js';
import { freePort, spawnDaemon, waitFor, type Daemon } from '../runtime/process.js';
import { k8sMinor } from './k8s-version.js';
import { kubeconfig, makePki } from './pki.js';

export interface ClusterState {
  dir: string;
  kubeconfig: string;
  server: string;
  logDir: string;
  /** Directories outside `dir` to remove on teardown (etcd's in-memory data). */
  dataDirs: string[];
  processes: { name: string; pid: number; log: string }[];
}

export interface Cluster extends ClusterState {
  daemons: Daemon[];
  stop(): Promise<void>;
}

/** Where build.sh put the binaries: its last stdout line. */
export function binDir(repoRoot: string): string {
  const out = execFileSync('bash', [join(repoRoot, 'e2e/cluster/build.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return out.trim().split('\n').pop() ?? '';
}

export function kubectl(kc: string, args: string[], input?: string): string {
  return execFileSync('kubectl', ['--kubeconfig', kc, ...args], { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
}

const ok = (f: () => unknown) => async () => { f(); return true; };

export async function startCluster(opts: {
  dir: string; bin: string; fakeNodes?: number;
  /**
   * More kube-controller-manager controllers to turn off (e.g. `ttl`, `nodelifecycle` for a benchmark whose 1,000
   * kwok nodes send no heartbeats). Empty for tests: they run against the usual set.
   */
  kcmDisable?: readonly string[];
  /** The apiserver's bind and advertise address (default 127.0.0.1); host clients use it too. */
  address?: string;
  /** After each process starts, so a caller can record what a `down` must stop if this start is interrupted. */
  onProgress?: (p: Pick<ClusterState, 'processes' | 'dataDirs'>) => void;
}): Promise<Cluster> {
  const { dir, bin } = opts;
  const address = opts.address ?? '127.0.0.1';
  const logDir = join(dir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const daemons: Daemon[] = [];
  // etcd's data lives in memory: fsync on a loaded CI disk makes the apiserver time out.
  const etcdData = join('/dev/shm', `kruise-ts-etcd-${process.pid}-${Date.now()}`);
  const stop = async () => {
    // By pid with polling (not the child's exit event): it also works when the caller's event loop is otherwise empty.
    await killGroups(daemons.map((d) => d.pid).reverse());
    rmSync(etcdData, { recursive: true, force: true });
  };
  const start = (name: string, args: string[]) => {
    mkdirSync(join(dir, name), { recursive: true });
    const d = spawnDaemon(name, join(bin, name), args, join(logDir, `${name}.log`));
    daemons.push(d);
    opts.onProgress?.({ processes: daemons.map((x) => ({ name: x.name, pid: x.pid, log: x.logFile })), dataDirs: [etcdData] });
    return d;
  };
  try {
    const pki = makePki(join(dir, 'pki'), address);
    const [etcdClient, etcdPeer, apiPort, kcmPort, schedPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const server = `https://${address}:${apiPort}`;
    const kc = (name: string, user = pki.admin) => {
      const p = join(dir, `${name}.kubeconfig`);
      writeFileSync(p, kubeconfig(server, pki.ca, user));
      return p;
    };
    const adminKc = kc('admin');

    const etcd = start('etcd', ['--data-dir', etcdData, '--name', 'kruise-ts',
      `--listen-client-urls=http://127.0.0.1:${etcdClient}`, `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`, `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=kruise-ts=http://127.0.0.1:${etcdPeer}`, '--unsafe-no-fsync', '--log-level=warn']);
    await waitFor('etcd', async () => (await fetch(`http://127.0.0.1:${etcdClient}/readyz`)).ok, 30_000, () => etcd.child.exitCode === null);

    const api = start('kube-apiserver', [
      `--etcd-servers=http://127.0.0.1:${etcdClient}`, `--bind-address=${address}`, `--advertise-address=${address}`,
      `--secure-port=${apiPort}`, `--tls-cert-file=${pki.apiserver.cert}`, `--tls-private-key-file=${pki.apiserver.key}`,
      `--client-ca-file=${pki.ca}`, `--service-account-issuer=${server}`, `--service-account-key-file=${pki.saPub}`,
      `--service-account-signing-key-file=${pki.saKey}`, '--service-cluster-ip-range=10.96.0.0/24',
      '--authorization-mode=Node,RBAC', '--allow-privileged=true',
      // Image volumes (beta, off by default in 1.34): without the gate the apiserver drops the `image` source of a pod a
      // SidecarSet injects it into and refuses the volume (e2e/sidecarset-image-volume). Pods using them are only created.
      // The gate exists from 1.31 on; an older apiserver refuses to start with it.
      ...(k8sMinor() >= 31 ? ['--feature-gates=ImageVolume=true'] : []),
      // A real kubelet (e2e/harness/node) authenticates the apiserver by client cert for logs/exec/port-forward.
      `--kubelet-client-certificate=${pki.admin.cert}`, `--kubelet-client-key=${pki.admin.key}`,
      '--enable-admission-plugins=NamespaceLifecycle,LimitRanger,ServiceAccount,DefaultStorageClass,MutatingAdmissionWebhook,ValidatingAdmissionWebhook,ResourceQuota,NodeRestriction',
      `--cert-dir=${join(dir, 'kube-apiserver')}`, '--profiling=false', '--v=1']);
    await waitFor('kube-apiserver', ok(() => kubectl(adminKc, ['get', '--raw', '/readyz'])), 90_000, () => api.child.exitCode === null);

    start('kube-controller-manager', [`--kubeconfig=${kc('kcm', pki.kcm)}`,
      `--authentication-kubeconfig=${kc('kcm', pki.kcm)}`, `--authorization-kubeconfig=${kc('kcm', pki.kcm)}`,
      '--bind-address=127.0.0.1', `--secure-port=${kcmPort}`, `--cert-dir=${join(dir, 'kube-controller-manager')}`,
      `--service-account-private-key-file=${pki.saKey}`, `--root-ca-file=${pki.ca}`, '--use-service-account-credentials=true',
      // No cloud, no node IPAM (kwok assigns pod CIDRs), no persistent volumes on fake nodes.
      `--controllers=*,-nodeipam,-cloud-node-lifecycle,-service-lb-controller,-route,-persistentvolume-binder,-persistentvolume-expander,-attachdetach${(opts.kcmDisable ?? []).map((c) => `,-${c}`).join('')}`,
      '--leader-elect=false', '--v=1']);
    start('kube-scheduler', [`--kubeconfig=${kc('scheduler', pki.scheduler)}`,
      `--authentication-kubeconfig=${kc('scheduler', pki.scheduler)}`, `--authorization-kubeconfig=${kc('scheduler', pki.scheduler)}`,
      '--bind-address=127.0.0.1', `--secure-port=${schedPort}`, '--leader-elect=false', '--v=1']);
    start('kwok', [`--kubeconfig=${adminKc}`, '--manage-all-nodes=false',
      '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake', '--cidr=10.0.0.0/24', '--node-ip=10.0.0.1',
      '--node-lease-duration-seconds=40']);
    const alive = () => daemons.every((d) => d.child.exitCode === null);
    await waitFor('kube-controller-manager and kube-scheduler', ok(() => {
      for (const p of [kcmPort, schedPort]) execFileSync('curl', ['-skf', `https://127.0.0.1:${p}/healthz`]);
    }), 60_000, alive);
    // The ServiceAccount admission plugin refuses pods until the token controller has made "default".
    await waitFor('default ServiceAccount', ok(() => kubectl(adminKc, ['get', 'serviceaccount', 'default', '-n', 'default'])), 60_000, alive);
    for (let i = 1; i <= (opts.fakeNodes ?? 3); i++) kubectl(adminKc, ['apply', '-f', '-'], fakeNode(`kwok-node-${i}`));
    await waitFor('fake nodes Ready', ok(() => {
      const out = kubectl(adminKc, ['wait', '--for=condition=Ready', 'node', '-l', 'type=kwok', '--timeout=5s']);
      if (!out.includes('condition met')) throw new Error(out);
    }), 60_000, alive);

    return {
      dir, kubeconfig: adminKc, server, logDir, daemons, stop, dataDirs: [etcdData],
      processes: daemons.map((d) => ({ name: d.name, pid: d.pid, log: d.logFile })),
    };
  } catch (err) {
    const tails = daemons.map((d) => `--- ${d.name} ---\n${d.tail(15)}`).join('\n');
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${tails}`);
  }
}

function fakeNode(name: string): string {
  return JSON.stringify({
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: { type: 'kwok', 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' } },
    status: { allocatable: { cpu: '32', memory: '256Gi', pods: '110' }, capacity: { cpu: '32', memory: '256Gi', pods: '110' } },
  });
}
