// The daemon's narrow port onto a CRI runtime: only the calls kruise-daemon makes (spec §1.3), in plain
// typed values. Implemented over gRPC by grpc-runtime.ts and in memory by fake-runtime.ts.

export type ContainerState = 'created' | 'running' | 'exited' | 'unknown';

/** Per-call options. Every implementation applies a deadline; `timeoutMs` overrides the default one. */
export interface CallOptions {
  timeoutMs?: number;
  /** Cancels the call on the wire (the runtime sees the RPC cancelled); it then rejects with kind `canceled`. */
  signal?: AbortSignal;
}

export interface RuntimeVersion {
  version: string;
  /** e.g. `containerd`, `cri-o`, `docker`; also the scheme of container IDs (`containerd://<id>`). */
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

export interface ContainerFilter {
  id?: string;
  podSandboxId?: string;
  state?: ContainerState;
  /** Exact-match label selector, e.g. `{ 'io.kubernetes.pod.uid': uid }`. */
  labelSelector?: Record<string, string>;
}

export interface Container {
  id: string;
  podSandboxId: string;
  name: string;
  attempt: number;
  image: string;
  imageRef: string;
  state: ContainerState;
  /** Nanoseconds since the epoch; bigint because int64 nanos overflow a double's exact range. */
  createdAtNs: bigint;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface ContainerStatus {
  id: string;
  name: string;
  attempt: number;
  state: ContainerState;
  createdAtNs: bigint;
  startedAtNs: bigint;
  finishedAtNs: bigint;
  exitCode: number;
  image: string;
  imageRef: string;
  imageId: string;
  reason: string;
  message: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  logPath: string;
}

export interface ExecResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

export interface RuntimeService {
  version(opts?: CallOptions): Promise<RuntimeVersion>;
  listContainers(filter?: ContainerFilter, opts?: CallOptions): Promise<Container[]>;
  /** Throws a CriError of kind `not-found` when the container does not exist. */
  containerStatus(containerId: string, opts?: CallOptions): Promise<ContainerStatus>;
  /** Idempotent: stopping an already stopped or unknown container resolves. */
  stopContainer(containerId: string, timeoutSeconds: number, opts?: CallOptions): Promise<void>;
  /** A non-zero exit code is a result, not an error. The RPC deadline covers `timeoutSeconds` plus a margin. */
  execSync(containerId: string, cmd: string[], timeoutSeconds: number, opts?: CallOptions): Promise<ExecResult>;
}

export interface Image {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: number;
  pinned: boolean;
}

export interface AuthConfig {
  username?: string;
  password?: string;
  /** base64 `user:password`, as in a docker config.json. */
  auth?: string;
  serverAddress?: string;
  identityToken?: string;
  registryToken?: string;
}

export interface PullImageRequest {
  image: string;
  auth?: AuthConfig;
  sandboxConfig?: { labels?: Record<string, string>; annotations?: Record<string, string> };
}

export interface FilesystemUsage {
  timestampNs: bigint;
  mountpoint: string;
  usedBytes: number;
  inodesUsed: number;
}

export interface ImageFsInfo {
  imageFilesystems: FilesystemUsage[];
  containerFilesystems: FilesystemUsage[];
}

export interface ImageService {
  /** `image` filters by reference; omitted lists every image. */
  listImages(image?: string, opts?: CallOptions): Promise<Image[]>;
  /** Resolves null when the image is not present (CRI answers with an empty image, not NotFound). */
  imageStatus(image: string, opts?: CallOptions): Promise<Image | null>;
  /** Resolves the image reference (usually the digest-qualified ID) the runtime pulled. */
  pullImage(req: PullImageRequest, opts?: CallOptions): Promise<string>;
  imageFsInfo(opts?: CallOptions): Promise<ImageFsInfo>;
}
