// Each bundle builds and runs: every module it carries evaluates under plain node (no tsx), up to the first thing
// main() checks. Outside a cluster that is a clear configuration error, so nothing here needs an apiserver.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BUNDLE_GROUPS, buildBundles } from './bundles.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs `file` with an empty environment (no KUBECONFIG, not in a pod); its exit code and stderr. */
const run = (file: string) => new Promise<{ code: number | null; stderr: string }>((done) => {
  execFile(process.execPath, [file], { env: { PATH: process.env.PATH }, timeout: 30_000 }, (err, _stdout, stderr) =>
    done({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stderr }));
});

test('the bundles (three apps, the lease thread and the CLI) build and start under plain node, each failing on its missing configuration', { timeout: 120_000 }, async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'kruise-ts-bundles-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const built = await buildBundles(repoRoot, BUNDLE_GROUPS.all!, out);
  assert.deepEqual(built.map((b) => b.file), [...['daemon', 'webhook', 'controller'].map((a) => join(out, 'dist', a, 'main.mjs')), join(out, 'dist/controller/lease-thread.mjs'), join(out, 'dist/cli/kruise-ts.mjs')]);
  assert.ok(existsSync(join(out, 'dist/daemon/cri.proto')), 'the daemon loads cri.proto from beside its bundle');
  assert.ok(existsSync(join(out, 'dist/webhook/worker.mjs')), 'the webhook starts its admission workers from beside its bundle');
  const worker = await run(join(out, 'dist/webhook/worker.mjs'));
  assert.match(worker.stderr, /webhook\/pool\/worker: not a worker thread/, 'the worker bundle evaluates under plain node');
  const inCluster = /KubeconfigError: in-cluster config: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set/;
  const [daemon, webhook, controller, leaseThread, cli] = await Promise.all(built.map((b) => run(b.file)));
  assert.equal(leaseThread!.code, 0, `the lease thread's module does nothing outside a worker: ${leaseThread!.stderr}`);
  // The CLI without a command: its usage, no tsx needed (the image has none).
  assert.notEqual(cli!.code, 0);
  assert.match(cli!.stderr, /kruise-ts inject/);
  assert.equal(webhook!.code, 1, webhook!.stderr);
  assert.match(webhook!.stderr, /^kruise-webhook failed to start: /);
  assert.match(webhook!.stderr, inCluster);
  assert.equal(controller!.code, 1, controller!.stderr);
  assert.match(controller!.stderr, /^kruise-controller failed to start: /);
  assert.match(controller!.stderr, inCluster);
  assert.equal(daemon!.code, 2, daemon!.stderr);
  assert.match(daemon!.stderr, /NODE_NAME/);
});
