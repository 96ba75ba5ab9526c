// The demo's options and tools (printed commands, JSON reads, bounded waits, pinning to the real node), shared by
// the default demo (demo.ts) and its optional steps (demo-optional.ts).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REAL_NODE_LABEL, REAL_NODE_TAINT } from './node/start.js';

export interface DemoOptions {
  kubeconfig: string;
  /** e2e/cluster/examples */
  examples: string;
  /** The real node's name, if the cluster has one. */
  realNode?: string;
  /** Names of optional steps (demo-optional.ts) to run after the default demo. */
  optional?: readonly string[];
}

export type PodJson = { metadata: { uid: string }; status: { containerStatuses?: { name: string; ready: boolean; restartCount: number; image: string }[] } };

export class DemoStepFailed extends Error {}

/** The demo's commands: printed and run, JSON reads, bounded waits, and pinning to the real node. */
export function demoTools(o: DemoOptions) {
  const env = { ...process.env, KUBECONFIG: o.kubeconfig };
  const show = (cmd: string) => {
    process.stdout.write(`\n$ ${cmd}\n`);
    const r = spawnSync('bash', ['-c', cmd], { stdio: 'inherit', env, timeout: 240_000 });
    if (r.status !== 0) throw new DemoStepFailed(`\`${cmd}\` failed (${r.error?.message ?? `exit ${r.status}`})`);
  };
  const json = <T>(args: string[]): T | undefined => {
    const r = spawnSync('kubectl', [...args, '-o', 'json'], { encoding: 'utf8', env, timeout: 30_000 });
    return r.status === 0 ? JSON.parse(r.stdout) as T : undefined;
  };
  const waitFor = async (what: string, ok: () => boolean, timeoutMs: number) => {
    process.stdout.write(`# waiting (up to ${timeoutMs / 1000} s) for ${what}\n`);
    const deadline = Date.now() + timeoutMs;
    while (!ok()) {
      if (Date.now() > deadline) throw new DemoStepFailed(`${what}: not within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  const ex = (f: string) => join(o.examples, f);
  const pin = o.realNode
    ? { pod: { spec: { nodeName: o.realNode } },
        template: { spec: { template: { spec: { nodeSelector: { [REAL_NODE_LABEL]: 'true' },
          tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }] } } } } }
    : undefined;
  const applyPinned = (file: string, patch: object | undefined) => patch
    ? `kubectl patch --local -f ${file} --type=merge -p '${JSON.stringify(patch)}' -o yaml | kubectl apply -f -`
    : `kubectl apply -f ${file}`;
  return { env, show, json, waitFor, ex, pin, applyPinned };
}
export type DemoTools = ReturnType<typeof demoTools>;
