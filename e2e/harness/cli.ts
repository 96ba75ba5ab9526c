// Composition root of the local cluster: `up` (start and leave running), `down`, and `run -- CMD` (start, run
// CMD with KUBECONFIG set, always tear down). One stack at a time, found through e2e/.run/state.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binDir, startCluster, type Cluster } from './cluster/cluster.js';
import { startController } from './cluster/controller.js';
import { startManager } from './cluster/manager.js';
import { e2eFeatureGates } from './cluster/feature-gates.js';
import { fromSources } from './cluster/manager-command.js';
import { readState, teardown, writeState, type StackState } from './cluster/state.js';
import { DemoStepFailed, runDemo } from './demo.js';
import { optionalSteps } from './demo-optional.js';
import { helmInstall, localValues, waitForRelease } from './node/helm-install.js';
import { launchRealNode } from './node/launch.js';
import { stopRealNode } from './node/stop.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const runRoot = join(repoRoot, 'e2e/.run');
const stateFile = join(runRoot, 'state.json');
const say = (s: string) => process.stderr.write(`[cluster] ${s}\n`);

/**
 * The real node is on unless KRUISE_TS_REAL_NODE=0 (e.g. without root): then no pod runs, the apiserver stays on
 * loopback, the chart is installed with its manager Deployments at 0 replicas and the webhook and controllers run as
 * host processes (the webhook called by URL); tests that need pods skip.
 */
const REAL_NODE = process.env.KRUISE_TS_REAL_NODE !== '0';
const REAL_NODE_NAME = 'kts-node-1';

/** Node first (its kubelet would recreate pods), then manager and control plane. */
async function down(keepLogs = false): Promise<void> {
  if (existsSync(stateFile)) {
    const s = readState(stateFile);
    if (s.realNode) {
      const t = Date.now();
      await stopRealNode(s.realNode, keepLogs ? { keepLogsIn: s.logDir } : {});
      say(`real node stopped in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
  }
  await teardown(stateFile, keepLogs);
}

async function up(): Promise<StackState> {
  await down();
  const bin = binDir(repoRoot);
  const dir = join(runRoot, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  const logDir = join(dir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const t0 = Date.now();
  // Written from the first process on, so `down` (or the next `up`) stops what an interrupted start left.
  const live: StackState = { dir, kubeconfig: join(dir, 'admin.kubeconfig'), server: '', logDir, dataDirs: [], processes: [] };
  const save = () => writeState(stateFile, live);
  save();
  const node = REAL_NODE ? launchRealNode({ repoRoot, name: REAL_NODE_NAME, bin, logDir, onState: (ns) => { live.realNode = ns; save(); } }) : undefined;
  let cluster: Cluster;
  try {
    cluster = await startCluster({ dir, bin, address: node?.apiAddress, onProgress: (p) => { Object.assign(live, p); save(); } });
  } catch (err) {
    await node?.abort(err);
    await down(true);
    throw err;
  }
  const { daemons: _d, stop: _s, ...state } = cluster;
  const s: StackState = Object.assign(live, state);
  save();
  const secs = (t: number) => `${((Date.now() - t) / 1000).toFixed(1)} s`;
  say(`control plane up in ${secs(t0)}; logs in ${cluster.logDir}`);
  const helm = join(bin, 'helm');
  s.helm = helm;
  try {
    if (node) {
      const tNode = Date.now();
      const n = await node.join({ server: cluster.server, pkiDir: join(dir, 'pki'), kubeconfig: cluster.kubeconfig });
      say(`real node ${n.state.name} Ready with kube-proxy ${secs(tNode)} after the control plane (${secs(t0)} in all)`);
      s.release = await node.install({ runDir: dir, kubeconfig: cluster.kubeconfig, helm, featureGates: e2eFeatureGates });
      writeState(stateFile, s);
      say(`kruise-ts installed by helm in ${s.release.installSeconds.toFixed(1)} s (helm install → manager and daemon pods Ready → a pod admitted through Service kruise-webhook-service; ${secs(t0)} in all)`);
      return s;
    }
    const valuesFile = helmInstall({ helm, kubeconfig: cluster.kubeconfig, repoRoot, runDir: dir,
      values: localValues({ containerdDir: '/run/containerd', daemonPort: 10221, featureGates: e2eFeatureGates, managerReplicas: 0 }) });
    await waitForRelease(cluster.kubeconfig, { managers: false });
    s.release = { name: 'kruise-ts', valuesFile, daemonPort: 10221, installSeconds: 0 };
    writeState(stateFile, s);
    const m = await startManager({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir });
    s.manager = { pid: m.daemon.pid, log: m.daemon.logFile, webhookPort: m.webhookPort, healthPort: m.healthPort };
    writeState(stateFile, s);
    const c = await startController({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir });
    s.controller = { pid: c.daemon.pid, log: c.daemon.logFile, healthPort: c.healthPort };
    writeState(stateFile, s);
    const how = fromSources() ? 'from sources through tsx (KRUISE_TS_FROM_SOURCES=1)' : 'from dist/webhook/main.mjs and dist/controller/main.mjs';
    say(`no real node: kruise-ts installed by helm with its managers as host processes; webhook on https://127.0.0.1:${m.webhookPort}, controllers on :${c.healthPort}, ${how} (${secs(t0)} in all)`);
  } catch (err) {
    await down(true);
    throw err;
  }
  return s;
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === 'down') { await down(); say('stopped'); return 0; }
  if (cmd === 'up' || cmd === 'demo') {
    const unknown = cmd === 'demo' ? rest.filter((n) => !(n in optionalSteps)) : rest;
    if (unknown.length) {
      process.stderr.write(`unknown ${cmd === 'demo' ? 'optional demo step' : 'argument'} ${unknown.join(' ')}; optional demo steps:\n` +
        Object.entries(optionalSteps).map(([n, st]) => `  ${n}: ${st.summary}\n`).join(''));
      return 2;
    }
    const s = await up();
    let code = 0;
    if (cmd === 'demo') {
      const t = Date.now();
      try {
        await runDemo({ kubeconfig: s.kubeconfig, examples: join(repoRoot, 'e2e/cluster/examples'), realNode: s.realNode?.name, optional: rest });
        say(`demo replayed in ${((Date.now() - t) / 1000).toFixed(1)} s`);
      } catch (err) {
        if (!(err instanceof DemoStepFailed)) throw err;
        say(`demo failed: ${err.message}`);
        code = 1;
      }
    }
    process.stdout.write(`\nThe cluster keeps running. Use it with:\n  export KUBECONFIG=${s.kubeconfig}\nStop it with:\n  bash e2e/cluster.sh down\n`);
    return code;
  }
  if (cmd === 'run' && rest[0] === '--' && rest.length > 1) {
    const stop = () => { void down().then(() => process.exit(130)); };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      const s = await up();
      const r = spawnSync(rest[1] as string, rest.slice(2), { stdio: 'inherit',
        env: { ...process.env, KUBECONFIG: s.kubeconfig, KRUISE_TS_E2E_STATE: stateFile } });
      return r.status ?? 1;
    } finally {
      await down(process.env.KRUISE_TS_KEEP_LOGS === '1');
    }
  }
  process.stderr.write(`usage: cli.ts up | demo [${Object.keys(optionalSteps).join(' | ')}]... | down | run -- CMD [ARGS...]\n`);
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
