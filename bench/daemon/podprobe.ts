// The NodePodProbe prober's own cost on one node, in process: N pods × (exec + tcpSocket) probes at periodSeconds 1,
// exec answered by the fake CRI runtime (so the figure is the daemon's work, not the runtime's) and tcp dialled to a
// loopback listener, results flowing through the cache into an in-memory status API. Prints probes per second, CPU
// per probe, the event-loop delay and how many status writes the run made.
//   node --import tsx bench/daemon/podprobe.ts [pods=500] [seconds=10]
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pino from 'pino';
import type { NodePodProbe } from '../../shared/api/node-pod-probe.js';
import { realClock } from '../../shared/clock.js';
import { FakeRuntime } from '../../daemon/cri/fake-runtime.js';
import type { Container, ContainerFilter } from '../../daemon/cri/runtime.js';
import { ProbeResults } from '../../daemon/podprobe/results.js';
import { statusSync } from '../../daemon/podprobe/status-sync.js';
import { POD_UID_LABEL } from '../../daemon/podprobe/worker.js';
import { ProbeWorkers } from '../../daemon/podprobe/workers.js';

const pods = Number(process.argv[2] ?? 500);
const seconds = Number(process.argv[3] ?? 10);

const server = createServer((s) => s.end());
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;

/** The fake CRI with ListContainers indexed by pod uid: a real runtime filters in its own process, not ours. */
class IndexedRuntime extends FakeRuntime {
  private readonly byUid = new Map<string, Container[]>();
  index(): void {
    for (const c of this.containers.values()) {
      const uid = c.labels[POD_UID_LABEL];
      this.byUid.set(uid, [...(this.byUid.get(uid) ?? []), { ...c }]);
    }
  }
  override async listContainers(filter?: ContainerFilter): Promise<Container[]> {
    return this.byUid.get(filter?.labelSelector?.[POD_UID_LABEL] ?? '') ?? [];
  }
}
const runtime = new IndexedRuntime();
let execs = 0;
runtime.execHandler = () => { execs++; return { stdout: Buffer.from(execs % 7 ? 'ok' : 'slow'), stderr: Buffer.alloc(0), exitCode: 0 }; };
const npp: NodePodProbe = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodePodProbe', metadata: { name: 'node', resourceVersion: '1' }, spec: { podProbes: [] } };
for (let i = 0; i < pods; i++) {
  const uid = `uid-${i}`;
  runtime.addContainer({ id: `c-${i}`, name: 'main', labels: { [POD_UID_LABEL]: uid }, startedAtNs: 1n });
  npp.spec!.podProbes!.push({ name: `pod-${i}`, namespace: 'bench', uid, IP: '127.0.0.1', probes: [
    { name: 'ppm#exec', containerName: 'main', probe: { exec: { command: ['check'] }, periodSeconds: 1 } },
    { name: 'ppm#tcp', containerName: 'main', probe: { tcpSocket: { port }, periodSeconds: 1 } },
  ] });
}

runtime.index();
let current = structuredClone(npp);
let writes = 0;
let pending = false;
const results = new ProbeResults({ clock: realClock, onStored: () => { pending = true; } });
const sync = statusSync({
  nodeName: 'node', cached: () => current, results, emit: () => {}, clock: realClock,
  api: { get: async () => current, replaceStatus: async (o) => { writes++; current = { ...current, status: o.status, metadata: { ...current.metadata, resourceVersion: String(writes + 1) } }; return current; } },
});
let runs = 0;
const workers = new ProbeWorkers({ runtime, results, clock: realClock, random: Math.random, daemonStartMs: Date.now(), log: pino({ level: 'silent' }), observe: () => { runs++; } });

const loop = monitorEventLoopDelay({ resolution: 10 });
const cpu0 = process.cpuUsage();
loop.enable();
workers.sync(npp);
const statusTimer = setInterval(() => { if (pending) { pending = false; void sync(); } }, 100);
await new Promise((r) => setTimeout(r, seconds * 1000));
clearInterval(statusTimer);
loop.disable();
const cpu = process.cpuUsage(cpu0);
await workers.stopAll();
server.close();

const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(`pods ${pods}, probes ${pods * 2} (exec on the fake CRI + tcp to loopback), period 1 s, ${seconds} s`);
console.log(`probe runs ${runs} (${(runs / seconds).toFixed(0)}/s), CPU ${(cpuMs / runs * 1000).toFixed(0)} µs per probe run (${(cpuMs / seconds / 10).toFixed(1)}% of a core)`);
console.log(`event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms; status writes ${writes}`);
