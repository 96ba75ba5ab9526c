// The CPU time of a benchmark server's threads, by kind, from /proc/<pid>/task/*/stat (Linux): its main thread (the
// event loop that reads requests and writes replies), its admission workers (Node names their threads WorkerThread)
// and the rest (V8's GC helpers, libuv's pool). What bench:admission:cores needs to say which thread bounds a server's
// throughput: a server whose main thread costs M per request and whose threads cost T in all cannot answer more than
// min(1 / M, cores / T) requests a second, whatever the load generator.
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadCpu { main: number; workers: number; other: number }

const TICKS = 100; // USER_HZ: /proc reports CPU time in clock ticks of 1/100 s on Linux.

export function threadCpuSeconds(pid: number): ThreadCpu {
  const out: ThreadCpu = { main: 0, workers: 0, other: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try { stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'); } catch { continue; } // a thread that just ended
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime
    if (tid === String(pid)) out.main += seconds;
    else if (comm === 'WorkerThread') out.workers += seconds;
    else out.other += seconds;
  }
  return out;
}

export const minus = (a: ThreadCpu, b: ThreadCpu): ThreadCpu => ({ main: a.main - b.main, workers: a.workers - b.workers, other: a.other - b.other });
export const total = (c: ThreadCpu) => c.main + c.workers + c.other;
