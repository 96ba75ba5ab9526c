// CRI socket discovery, as kruise-daemon does it (spec §1.2): the host's /var/run is mounted read-only at
// /hostvarrun; an explicit --socket-file is used alone, otherwise every known runtime socket that exists is
// probed and the ones that answer both image and runtime calls survive.
import { join } from 'node:path';

export const HOST_VAR_RUN = '/hostvarrun';

/** Probe order matters: the first surviving runtime serves image pulls. */
export const CANDIDATE_SOCKET_FILES: readonly string[] = [
  'containerd.sock',
  'containerd/containerd.sock',
  'crio.sock',
  'crio/crio.sock',
  'cri-dockerd.sock',
  'cri-dockerd/cri-dockerd.sock',
];

export interface SocketDiscoveryInput {
  /** `--socket-file`, relative to `varRunDir`. When set there is no fallback to the candidates. */
  socketFile?: string;
  /** An absolute socket path that bypasses the mount-point convention (local runs, tests). */
  socketPath?: string;
  varRunDir?: string;
  exists: (path: string) => boolean;
}

/** Socket paths worth probing, in order. Empty means "not found container runtime sock". */
export function candidateSockets(input: SocketDiscoveryInput): string[] {
  if (input.socketPath) return input.exists(input.socketPath) ? [input.socketPath] : [];
  const dir = input.varRunDir ?? HOST_VAR_RUN;
  if (input.socketFile) {
    const path = join(dir, input.socketFile);
    return input.exists(path) ? [path] : [];
  }
  return CANDIDATE_SOCKET_FILES.map((f) => join(dir, f)).filter((p) => input.exists(p));
}

export interface DiscoveredRuntime<C> {
  socketPath: string;
  runtimeName: string;
  client: C;
}

export interface SocketProbe<C> {
  connect(socketPath: string): C;
  /** Upstream checks ListImages then Version; either failing skips the candidate. Returns runtime_name. */
  probe(client: C): Promise<string>;
  close(client: C): void;
}

export interface DiscoveryResult<C> {
  runtimes: DiscoveredRuntime<C>[];
  /** Why each rejected candidate was skipped, for the startup log. */
  skipped: { socketPath: string; error: unknown }[];
}

export async function discoverRuntimes<C>(sockets: string[], p: SocketProbe<C>): Promise<DiscoveryResult<C>> {
  const result: DiscoveryResult<C> = { runtimes: [], skipped: [] };
  for (const socketPath of sockets) {
    const client = p.connect(socketPath);
    try {
      result.runtimes.push({ socketPath, runtimeName: await p.probe(client), client });
    } catch (error) {
      p.close(client);
      result.skipped.push({ socketPath, error });
    }
  }
  return result;
}
