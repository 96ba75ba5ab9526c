// The KubeletConfiguration (v1beta1, kubelet v1.34) of the harness's real node: cgroup v1 + cgroupfs under a
// per-run cgroup root, containerd 1.6 over a private socket, every server on loopback, and no host path shared
// with another kubelet. Written as JSON, which the kubelet's config loader accepts like YAML.

export interface KubeletConfigInput {
  /** CRI socket of the node's private containerd. */
  socket: string;
  port: number;
  healthzPort: number;
  /** CA that signed the apiserver's kubelet-client cert. */
  clientCaFile: string;
  /** Per-run cgroup parent (e.g. `/kruise-ts-node-1234`), created before the kubelet starts. */
  cgroupRoot: string;
  podLogsDir: string;
  volumePluginDir: string;
  taints: { key: string; value: string; effect: 'NoSchedule' | 'NoExecute' | 'PreferNoSchedule' }[];
  /** The kubelet's Kubernetes minor (e2e/harness/cluster/k8s-version.ts); 34 when not said. */
  minor?: number;
}

export function kubeletConfig(i: KubeletConfigInput): Record<string, unknown> {
  return {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    // cgroup v1 (hybrid layout) is only warned about in 1.34; explicit so a 1.35 kubelet starts too.
    failCgroupV1: false,
    failSwapOn: false,
    // containerd 1.6 has no RuntimeConfig RPC, so the kubelet falls back to this; no systemd on the machines.
    cgroupDriver: 'cgroupfs',
    cgroupsPerQOS: true,
    cgroupRoot: i.cgroupRoot,
    enforceNodeAllocatable: ['pods'],
    containerRuntimeEndpoint: `unix://${i.socket}`,
    address: '127.0.0.1',
    port: i.port,
    readOnlyPort: 0,
    healthzBindAddress: '127.0.0.1',
    healthzPort: i.healthzPort,
    // Only the apiserver (client cert from the run's CA) may call the kubelet API; it asks the apiserver whether.
    authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: i.clientCaFile } },
    authorization: { mode: 'Webhook' },
    registerWithTaints: i.taints,
    // Host state the kubelet would otherwise change for good: iptables chains and kernel sysctls are left to
    // the harness (which saves and restores the sysctls the kubelet still sets at start).
    makeIPTablesUtilChains: false,
    protectKernelDefaults: false,
    podLogsDir: i.podLogsDir,
    volumePluginDir: i.volumePluginDir,
    // Shared CI disks can be nearly full; pods must not be evicted for that.
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '1%', 'imagefs.available': '1%', 'nodefs.inodesFree': '1%' },
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    serializeImagePulls: false,
    maxPods: 50,
    // Restarts in tests (in-place upgrades, CRR, crash loops) wait at most 10 s, not the default 5 minutes;
    // not less, or a pod that keeps failing restarts so often it eats the 2 CI cores.
    // (The gate exists from 1.32; an older kubelet refuses an unknown gate, so it keeps the default back-off.)
    ...((i.minor ?? 34) >= 32 ? { featureGates: { KubeletCrashLoopBackOffMax: true }, crashLoopBackOff: { maxContainerRestartPeriod: '10s' } } : {}),
    // Before 1.31 the field does not exist; the kubelet decodes strictly first and would log it as unknown.
    ...((i.minor ?? 34) >= 31 ? {} : { failCgroupV1: undefined }),
  };
}
