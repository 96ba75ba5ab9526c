// Which Kubernetes minor the harness runs: KRUISE_TS_K8S (1.34 by default, 1.30 the oldest the chart supports),
// the same variable e2e/cluster/build.sh reads to build that minor's binaries. CI runs the install and the demo on
// both (e2e/test-all.sh).
export function k8sMinor(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.KRUISE_TS_K8S ?? '1.34';
  const m = /^1\.(\d+)$/.exec(v);
  if (!m) throw new Error(`KRUISE_TS_K8S=${v}: expected 1.<minor>, e.g. 1.30`);
  return Number(m[1]);
}
