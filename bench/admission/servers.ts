// The two servers of the admission benchmark (server.ts in child processes): started, asked for their CPU time and
// profiles over IPC. Shared by run.ts (Node load generator) and vegeta.ts (Go load generator).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type Mode = 'bare' | 'kruise';

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

/** Starts server.ts in `mode`, pinned to `cpu` with taskset when given. */
export async function startServer(mode: Mode, tls: { key: string; cert: string }, cpu?: string): Promise<Server> {
  const node = [process.execPath, '--import', 'tsx', fileURLToPath(new URL('./server.ts', import.meta.url))];
  const [cmd, ...rest] = cpu === undefined ? node : ['taskset', '-c', cpu, ...node];
  // stdout (the production logger's sink) is discarded; the port and CPU figures come over IPC.
  const child = spawn(cmd!, rest, { stdio: ['pipe', 'ignore', 'inherit', 'ipc'] });
  child.stdin!.end(JSON.stringify({ mode, ...tls }));
  return { mode, child, port: await ask<number>(child, {}, 'port') };
}

/** The server process's CPU time so far (user + system), in seconds. */
export async function serverCpuSeconds(s: Server): Promise<number> {
  const c = await ask<{ user: number; system: number }>(s.child, { cpu: true }, 'cpu');
  return (c.user + c.system) / 1e6;
}
