// Conversions between proto-loader's decoded objects (longs as strings, enums as names, defaults filled in)
// and the plain values of runtime.ts. Kept apart from the transport so they can be tested without a socket.
import type { Container, ContainerFilter, ContainerState, ContainerStatus, FilesystemUsage, Image, PullImageRequest } from './runtime.js';

type Wire = Record<string, any>;

const STATE_TO_WIRE: Record<ContainerState, string> = {
  created: 'CONTAINER_CREATED',
  running: 'CONTAINER_RUNNING',
  exited: 'CONTAINER_EXITED',
  unknown: 'CONTAINER_UNKNOWN',
};

/** Same mapping as kruise-daemon's kuberuntime view: anything unrecognised is `unknown`. */
export function stateFromWire(s: unknown): ContainerState {
  switch (s) {
    case 'CONTAINER_CREATED': return 'created';
    case 'CONTAINER_RUNNING': return 'running';
    case 'CONTAINER_EXITED': return 'exited';
    default: return 'unknown';
  }
}

const bigintOf = (v: unknown): bigint => (v === undefined || v === null || v === '' ? 0n : BigInt(v as string));
const numberOf = (v: unknown): number => (v === undefined || v === null || v === '' ? 0 : Number(v));
const strings = (v: unknown): Record<string, string> => ({ ...((v as Record<string, string> | undefined) ?? {}) });

export function containerFilterToWire(f: ContainerFilter | undefined): Wire | undefined {
  if (!f) return undefined;
  return {
    id: f.id ?? '',
    podSandboxId: f.podSandboxId ?? '',
    state: f.state ? { state: STATE_TO_WIRE[f.state] } : null,
    labelSelector: f.labelSelector ?? {},
  };
}

export function containerFromWire(c: Wire): Container {
  return {
    id: c.id,
    podSandboxId: c.podSandboxId,
    name: c.metadata?.name ?? '',
    attempt: numberOf(c.metadata?.attempt),
    image: c.image?.image ?? '',
    imageRef: c.imageRef,
    state: stateFromWire(c.state),
    createdAtNs: bigintOf(c.createdAt),
    labels: strings(c.labels),
    annotations: strings(c.annotations),
  };
}

export function containerStatusFromWire(s: Wire): ContainerStatus {
  return {
    id: s.id,
    name: s.metadata?.name ?? '',
    attempt: numberOf(s.metadata?.attempt),
    state: stateFromWire(s.state),
    createdAtNs: bigintOf(s.createdAt),
    startedAtNs: bigintOf(s.startedAt),
    finishedAtNs: bigintOf(s.finishedAt),
    exitCode: numberOf(s.exitCode),
    image: s.image?.image ?? '',
    imageRef: s.imageRef,
    imageId: s.imageId,
    reason: s.reason,
    message: s.message,
    labels: strings(s.labels),
    annotations: strings(s.annotations),
    logPath: s.logPath,
  };
}

export function imageFromWire(i: Wire): Image {
  return {
    id: i.id,
    repoTags: [...(i.repoTags ?? [])],
    repoDigests: [...(i.repoDigests ?? [])],
    size: numberOf(i.size),
    pinned: !!i.pinned,
  };
}

export function pullRequestToWire(r: PullImageRequest): Wire {
  const a = r.auth;
  return {
    image: { image: r.image, annotations: {} },
    auth: a
      ? {
          username: a.username ?? '',
          password: a.password ?? '',
          auth: a.auth ?? '',
          serverAddress: a.serverAddress ?? '',
          identityToken: a.identityToken ?? '',
          registryToken: a.registryToken ?? '',
        }
      : null,
    sandboxConfig: r.sandboxConfig
      ? { labels: r.sandboxConfig.labels ?? {}, annotations: r.sandboxConfig.annotations ?? {} }
      : null,
  };
}

export function fsUsageFromWire(u: Wire): FilesystemUsage {
  return {
    timestampNs: bigintOf(u.timestamp),
    mountpoint: u.fsId?.mountpoint ?? '',
    usedBytes: numberOf(u.usedBytes?.value),
    inodesUsed: numberOf(u.inodesUsed?.value),
  };
}
