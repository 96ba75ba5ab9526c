// The three servers of the admission benchmark (server-<mode>.ts in child processes): built as esbuild
// bundles with the manager's own build options (scripts/bundles.ts) and run under plain node, as the manager
// container runs dist/webhook/main.mjs; started, asked for their CPU time and profiles over IPC. Shared by run.ts
// (Node load generator) and vegeta.ts (Go load generator).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEntry } from '../../scripts/bundles.js';

export type Mode = 'bare' | 'noop' | 'kruise';

/** In the order they run each phase: the floor, the app's frame, the whole webhook. */
export const MODES: readonly Mode[] = ['bare', 'noop', 'kruise'];

export const LABEL: Record<Mode, string> = { bare: 'bare allow-all Fastify', noop: 'kruise-ts app, allow-all', kruise: 'kruise-ts /mutate-pod' };

export interface Server {
  mode: Mode;
  child: ChildProcess;
  port: number;
}

export function ask<T>(child: ChildProcess, msg: object, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Record<string, unknown>) => {
      if (!(key in m)) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m[key] as T);
    };
    const onExit = (code: number | null) => reject(new Error(`server exited with ${code} while waiting for ${key}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (Object.keys(msg).length) child.send(msg);
  });
}

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const entry = (mode: Mode) => `bench/admission/server-${mode}.ts`;

/**
 * The server's bundle, built at each start into dist/bench/ (beside the manager's, git-ignored), with the admission
 * worker's bundle beside it (webhook/pool/entry.ts starts worker.mjs from beside the bundle), as the manager's image has.
 */
const bundled = async (mode: Mode) => {
  const [file] = await Promise.all([
    buildEntry(REPO_ROOT, entry(mode), join(REPO_ROOT, `dist/bench/admission-server-${mode}.mjs`)),
    buildEntry(REPO_ROOT, 'webhook/pool/worker.ts', join(REPO_ROOT, 'dist/bench/worker.mjs')),
  ]);
  return file;
};

/**
 * Starts the server for `mode`, pinned to `cpu` with taskset when given. `fromSources` runs the TypeScript through tsx
 * instead of the bundle (CPU profiles then name project files; tsx adds its keepNames wrappers to the figures).
 */
export async function startServer(mode: Mode, tls: { key: string; cert: string }, cpu?: string, fromSources = false): Promise<Server> {
  const node = fromSources ? [process.execPath, '--import', 'tsx', join(REPO_ROOT, entry(mode))] : [process.execPath, await bundled(mode)];
  return { mode, ...(await startProcess(node, tls, cpu)) };
}

/** Starts a benchmark server process (`node`: its command line), pinned to `cpu` (a taskset list) when given. */
export async function startProcess(node: string[], tls: { key: string; cert: string }, cpu?: string): Promise<{ child: ChildProcess; port: number }> {
  const [cmd, ...rest] = cpu === undefined ? node : ['taskset', '-c', cpu, ...node];
  // stdout (the production logger's sink) is discarded; the port and CPU figures come over IPC.
  const child = spawn(cmd!, rest, { stdio: ['pipe', 'ignore', 'inherit', 'ipc'] });
  child.stdin!.end(JSON.stringify(tls));
  return { child, port: await ask<number>(child, {}, 'port') };
}

/** The server process's CPU time so far (user + system), in seconds. */
export async function serverCpuSeconds(s: Server): Promise<number> {
  const c = await ask<{ user: number; system: number }>(s.child, { cpu: true }, 'cpu');
  return (c.user + c.system) / 1e6;
}
