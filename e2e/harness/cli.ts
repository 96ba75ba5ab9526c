// Composition root of the local cluster: `up` (start and leave running), `down`, and `run -- CMD` (start, run
// CMD with KUBECONFIG set, always tear down). One stack at a time, found through e2e/.run/state.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binDir, kubectl, startCluster } from './cluster/cluster.js';
import { startController } from './cluster/controller.js';
import { startManager } from './cluster/manager.js';
import { teardown, writeState, type StackState } from './cluster/state.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const runRoot = join(repoRoot, 'e2e/.run');
const stateFile = join(runRoot, 'state.json');
const say = (s: string) => process.stderr.write(`[cluster] ${s}\n`);

async function up(): Promise<StackState> {
  await teardown(stateFile);
  const bin = binDir(repoRoot);
  const dir = join(runRoot, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const t0 = Date.now();
  const cluster = await startCluster({ dir, bin });
  const { daemons: _d, stop: _s, ...state } = cluster;
  const s: StackState = state;
  writeState(stateFile, s);
  say(`control plane up in ${((Date.now() - t0) / 1000).toFixed(1)} s; logs in ${cluster.logDir}`);
  try {
    kubectl(cluster.kubeconfig, ['apply', '-k', join(repoRoot, 'manifests')]);
    kubectl(cluster.kubeconfig, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
    const m = await startManager({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir });
    s.manager = { pid: m.daemon.pid, log: m.daemon.logFile, webhookPort: m.webhookPort, healthPort: m.healthPort };
    writeState(stateFile, s);
    const c = await startController({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir });
    s.controller = { pid: c.daemon.pid, log: c.daemon.logFile, healthPort: c.healthPort };
    writeState(stateFile, s);
    say(`kruise-ts installed; webhook on https://127.0.0.1:${m.webhookPort}, controllers on :${c.healthPort}`);
  } catch (err) {
    await teardown(stateFile, true);
    throw err;
  }
  return s;
}

function sh(kc: string, cmd: string) {
  process.stdout.write(`\n$ ${cmd}\n`);
  spawnSync('bash', ['-c', cmd], { stdio: 'inherit', env: { ...process.env, KUBECONFIG: kc } });
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === 'down') { await teardown(stateFile); say('stopped'); return 0; }
  if (cmd === 'up' || cmd === 'demo') {
    const s = await up();
    if (cmd === 'demo') {
      const ex = join(repoRoot, 'e2e/cluster/examples');
      for (const c of [`kubectl apply -f ${ex}/01-sidecarset-demo.yaml`, `kubectl apply -f ${ex}/02-test-pod.yaml`,
        'kubectl get sidecarset', 'kubectl get pod test-pod -o wide',
        "kubectl get pod test-pod -o jsonpath='{range .spec.containers[*]}{.name}{\"\\t\"}{.image}{\"\\t\"}{.env}{\"\\n\"}{end}'",
        "kubectl get pod test-pod -o jsonpath='{.metadata.annotations}'; echo"]) sh(s.kubeconfig, c);
    }
    process.stdout.write(`\nThe cluster keeps running. Use it with:\n  export KUBECONFIG=${s.kubeconfig}\nStop it with:\n  bash e2e/cluster.sh down\n`);
    return 0;
  }
  if (cmd === 'run' && rest[0] === '--' && rest.length > 1) {
    const stop = () => { void teardown(stateFile).then(() => process.exit(130)); };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      const s = await up();
      const r = spawnSync(rest[1] as string, rest.slice(2), { stdio: 'inherit',
        env: { ...process.env, KUBECONFIG: s.kubeconfig, KRUISE_TS_E2E_STATE: stateFile } });
      return r.status ?? 1;
    } finally {
      await teardown(stateFile, process.env.KRUISE_TS_KEEP_LOGS === '1');
    }
  }
  process.stderr.write('usage: cli.ts up | demo | down | run -- CMD [ARGS...]\n');
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
