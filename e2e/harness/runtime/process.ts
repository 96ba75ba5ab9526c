// Detached child processes for the runtime harness: each in its own process group, output to a log file,
// stopped by signalling the whole group so helpers it forked go too.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Daemon {
  name: string;
  pid: number;
  logFile: string;
  child: ChildProcess;
  /** SIGTERM the group, wait up to `graceMs`, then SIGKILL. Safe to call twice. */
  stop(graceMs?: number): Promise<void>;
  /** The log's last lines, for error messages. */
  tail(lines?: number): string;
}

export function spawnDaemon(name: string, cmd: string, args: string[], logFile: string, env: NodeJS.ProcessEnv = process.env): Daemon {
  const fd = openSync(logFile, 'a');
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', fd, fd], env });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${name}: failed to spawn ${cmd}`);
  const pid = child.pid;
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => { exited = true; resolve(); }));
  child.unref();
  const signalGroup = (sig: NodeJS.Signals) => {
    try { process.kill(-pid, sig); } catch { /* group already gone */ }
  };
  return {
    name, pid, logFile, child,
    async stop(graceMs = 5_000) {
      if (exited) return;
      signalGroup('SIGTERM');
      // The grace timer is cancelled once the group exits, or it would keep the test process alive.
      const grace = new AbortController();
      const timer = sleep(graceMs, true, { signal: grace.signal }).catch(() => false);
      const timedOut = await Promise.race([exit.then(() => false), timer]);
      grace.abort();
      if (timedOut) {
        signalGroup('SIGKILL');
        // The child is unref'd: without a ref'd handle the test runner could find the loop empty before the exit
        // event arrives, drop the pending stop and leave the rest of a teardown (a whole cluster) running.
        const keepAlive = setInterval(() => {}, 1000);
        try { await exit; } finally { clearInterval(keepAlive); }
      }
    },
    tail(lines = 30) {
      try { return readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n'); } catch { return ''; }
    },
  };
}

/** Polls `check` until it resolves truthy; rejects with the last error after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs: number, alive?: () => boolean): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    if (alive && !alive()) throw new Error(`${what}: process exited before becoming ready (last error: ${String(last)})`);
    try {
      const v = await check();
      if (v) return v;
    } catch (err) { last = err; }
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs} ms (last error: ${String(last)})`);
    await sleep(100);
  }
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}
