// Startup connection to the node's container runtime (spec/daemon-and-controllers.md §1.2–1.3): an explicit
// endpoint, or upstream's discovery under /hostvarrun; each candidate must answer ListImages and Version. The
// first survivor serves both images and containers; the others are closed (a node runs one CRI runtime here).
import { existsSync } from 'node:fs';
import { connectCri, type CriConnection } from './grpc-runtime.js';
import { candidateSockets, discoverRuntimes } from './socket.js';

export interface RuntimeTarget {
  /** `/path.sock` or `unix:///path.sock`: used alone. */
  endpoint?: string;
  /** Upstream `--socket-file`, relative to `varRunDir`: used alone. */
  socketFile?: string;
  varRunDir?: string;
}

export interface ConnectedRuntime {
  cri: CriConnection;
  socketPath: string;
  runtimeName: string;
}

/** Per-probe deadline: a runtime that cannot list its images in this long is not one to depend on. */
const PROBE_TIMEOUT_MS = 10_000;

/** Rejects with upstream's `not found container runtime sock` (plus why each candidate failed) when none answers. */
export async function connectRuntime(target: RuntimeTarget, connect: (socketPath: string) => CriConnection = (p) => connectCri({ endpoint: p })): Promise<ConnectedRuntime> {
  const socketPath = target.endpoint?.replace(/^unix:\/\//, '');
  const sockets = candidateSockets({ socketPath, socketFile: target.socketFile, varRunDir: target.varRunDir, exists: existsSync });
  const { runtimes, skipped } = await discoverRuntimes(sockets, {
    connect,
    probe: async (c) => {
      await c.images.listImages(undefined, { timeoutMs: PROBE_TIMEOUT_MS });
      return (await c.runtime.version({ timeoutMs: PROBE_TIMEOUT_MS })).runtimeName;
    },
    close: (c) => c.close(),
  });
  const [first, ...rest] = runtimes;
  for (const r of rest) r.client.close();
  if (!first) {
    const tried = sockets.length === 0 ? 'no socket file exists' : skipped.map((s) => `${s.socketPath}: ${(s.error as Error)?.message ?? String(s.error)}`).join('; ');
    throw new Error(`not found container runtime sock (${tried})`);
  }
  return { cri: first.client, socketPath: first.socketPath, runtimeName: first.runtimeName };
}
