// >>> CRR LATENCY SLOT — to be filled by the ContainerRecreateRequest work (branch h/crr). <<<
// run.ts calls measureCrrLatency once, after the pull figures, with the daemon process still running against the
// real apiserver and containerd, and prints whatever figures it returns. Until it is filled it returns undefined
// and run.ts prints "not measured". (h/crr also has a standalone `npm run bench:crr`, bench/daemon/crr-latency.ts.)
import type { Kube } from '../../shared/kube/client.js';
import type { NodeDaemon } from '../../e2e/harness/daemon.js';
import type { RuntimeEnv } from '../../e2e/harness/runtime/index.js';

export interface BenchContext {
  /** Admin kubeconfig of the benchmark's own cluster (real etcd + kube-apiserver). */
  kubeconfig: string;
  kube: Kube;
  /** The loopback registry and containerd the daemon talks to. */
  env: RuntimeEnv;
  /** The running daemon process (its pid, /metrics, log). */
  daemon: NodeDaemon;
  nodeName: string;
  /** Scratch directory removed at the end. */
  dir: string;
}

export interface Figure {
  label: string;
  value: string;
}

/** E.g. CRR created → containers recreated → CRR Completed, p50/p99 over N requests. */
export async function measureCrrLatency(_ctx: BenchContext): Promise<Figure[] | undefined> {
  return undefined;
}
