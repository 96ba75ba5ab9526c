// What both servers of the admission benchmark share (server-bare.ts, server-kruise.ts; each runs in a child process
// of run.ts or vegeta.ts, as an esbuild bundle like the manager's): the TLS material from stdin, HTTPS on 127.0.0.1,
// the port and on request the CPU time and a CPU profile over the IPC channel. A child process apiece keeps client
// and server from competing for one event loop, and lets the benchmark pin the server to its own core.
import type { FastifyInstance } from 'fastify';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';

/** The serving key and certificate run.ts generated, from stdin. */
export async function readTls(): Promise<{ key: string; cert: string }> {
  let s = '';
  for await (const chunk of process.stdin) s += chunk;
  const { key, cert } = JSON.parse(s) as { key: string; cert: string };
  return { key, cert };
}

/**
 * Listens on 127.0.0.1 and answers the parent: {cpu} → process.cpuUsage(); {profile: 'start'|'stop'} → a CPU profile
 * of just the phase in between (the inspector's sampler at 100 µs), returned as JSON.
 */
export async function serve(app: FastifyInstance): Promise<void> {
  if (!app.hasRoute({ method: 'POST', url: '/mutate-pod' })) {
    process.stderr.write('the handler table has no /mutate-pod route\n');
    process.exit(3);
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.send!({ port: (app.server.address() as AddressInfo).port });
  let session: Session | undefined;
  process.on('message', (m: { cpu?: boolean; profile?: 'start' | 'stop' }) => {
    if (m.cpu) process.send!({ cpu: process.cpuUsage() });
    if (m.profile === 'start') {
      session = new Session();
      session.connect();
      void (async () => {
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 100 });
        await session.post('Profiler.start');
        process.send!({ profiling: true });
      })();
    }
    if (m.profile === 'stop' && session) {
      void session.post('Profiler.stop').then(({ profile }) => {
        session!.disconnect();
        process.send!({ profile: JSON.stringify(profile) });
      });
    }
  });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
}
