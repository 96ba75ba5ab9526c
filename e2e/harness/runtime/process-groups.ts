// Stopping the harness's daemons: each runs in its own process group (spawnDaemon), stopped as a whole.
import { setTimeout as sleep } from 'node:timers/promises';

const alive = (pid: number) => { try { process.kill(-pid, 0); return true; } catch { return false; } };

/** SIGTERM each process group (manager first, etcd last), SIGKILL what is left after `graceMs`. */
export async function killGroups(pids: number[], graceMs = 5_000): Promise<void> {
  for (const pid of pids) {
    try { process.kill(-pid, 'SIGTERM'); } catch { /* already gone */ }
    const deadline = Date.now() + graceMs;
    while (alive(pid) && Date.now() < deadline) await sleep(50);
    try { process.kill(-pid, 'SIGKILL'); } catch { /* exited in time */ }
  }
}
