// In-memory CRI for unit tests of daemon logic (the role of cri-api's FakeRuntimeService): it records every
// call, keeps containers and images in maps, and lets a test make the next N calls of a method fail.
import { CriError } from './errors.js';
import type {
  CallOptions, Container, ContainerFilter, ContainerStatus, ExecResult, Image, ImageFsInfo, ImageService,
  PullImageRequest, RuntimeService, RuntimeVersion,
} from './runtime.js';

export type FakeMethod = keyof RuntimeService | keyof ImageService;

export interface FakeCall {
  method: FakeMethod;
  args: unknown[];
}

export type ExecHandler = (containerId: string, cmd: string[]) => ExecResult;

export class FakeRuntime implements RuntimeService, ImageService {
  readonly calls: FakeCall[] = [];
  readonly containers = new Map<string, ContainerStatus & { podSandboxId: string }>();
  readonly images = new Map<string, Image>();
  runtimeName = 'containerd';
  execHandler: ExecHandler = () => ({ stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 0 });
  private readonly failures = new Map<FakeMethod, Error[]>();
  private nextImageId = 1;

  /** Queue `err` for the next `times` calls of `method` (they throw instead of acting). */
  failNext(method: FakeMethod, err: Error, times = 1): void {
    const q = this.failures.get(method) ?? [];
    for (let i = 0; i < times; i++) q.push(err);
    this.failures.set(method, q);
  }

  addContainer(c: Partial<ContainerStatus> & { id: string; podSandboxId?: string }): void {
    this.containers.set(c.id, {
      name: '', attempt: 0, state: 'running', createdAtNs: 0n, startedAtNs: 0n, finishedAtNs: 0n, exitCode: 0,
      image: '', imageRef: '', imageId: '', reason: '', message: '', labels: {}, annotations: {}, logPath: '',
      podSandboxId: '', ...c,
    });
  }

  addImage(ref: string, extra: Partial<Image> = {}): Image {
    const img: Image = { id: `sha256:${String(this.nextImageId++).padStart(64, '0')}`, repoTags: [ref], repoDigests: [], size: 0, pinned: false, ...extra };
    this.images.set(img.id, img);
    return img;
  }

  callsOf(method: FakeMethod): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  private record(method: FakeMethod, args: unknown[]): void {
    this.calls.push({ method, args });
    const err = this.failures.get(method)?.shift();
    if (err) throw err;
  }

  async version(_o?: CallOptions): Promise<RuntimeVersion> {
    this.record('version', []);
    return { version: '0.1.0', runtimeName: this.runtimeName, runtimeVersion: 'fake', runtimeApiVersion: 'v1' };
  }

  async listContainers(filter?: ContainerFilter, _o?: CallOptions): Promise<Container[]> {
    this.record('listContainers', [filter]);
    const matches = (c: ContainerStatus & { podSandboxId: string }) =>
      (!filter?.id || c.id === filter.id) &&
      (!filter?.podSandboxId || c.podSandboxId === filter.podSandboxId) &&
      (!filter?.state || c.state === filter.state) &&
      Object.entries(filter?.labelSelector ?? {}).every(([k, v]) => c.labels[k] === v);
    return [...this.containers.values()].filter(matches).map((c) => ({
      id: c.id, podSandboxId: c.podSandboxId, name: c.name, attempt: c.attempt, image: c.image, imageRef: c.imageRef,
      state: c.state, createdAtNs: c.createdAtNs, labels: { ...c.labels }, annotations: { ...c.annotations },
    }));
  }

  async containerStatus(containerId: string, _o?: CallOptions): Promise<ContainerStatus> {
    this.record('containerStatus', [containerId]);
    const c = this.containers.get(containerId);
    if (!c) throw new CriError('not-found', 'RuntimeService/ContainerStatus', `container "${containerId}" not found`);
    const { podSandboxId: _sandbox, ...status } = c;
    return { ...status, labels: { ...c.labels }, annotations: { ...c.annotations } };
  }

  /** Like the real client: unknown or already-stopped containers are a successful stop. */
  async stopContainer(containerId: string, timeoutSeconds: number, _o?: CallOptions): Promise<void> {
    this.record('stopContainer', [containerId, timeoutSeconds]);
    const c = this.containers.get(containerId);
    if (c && c.state !== 'exited') Object.assign(c, { state: 'exited', exitCode: 137, reason: 'Stopped' });
  }

  async execSync(containerId: string, cmd: string[], timeoutSeconds: number, _o?: CallOptions): Promise<ExecResult> {
    this.record('execSync', [containerId, cmd, timeoutSeconds]);
    if (!this.containers.has(containerId)) throw new CriError('not-found', 'RuntimeService/ExecSync', `container "${containerId}" not found`);
    return this.execHandler(containerId, cmd);
  }

  async listImages(image?: string, _o?: CallOptions): Promise<Image[]> {
    this.record('listImages', [image]);
    return [...this.images.values()].filter((i) => !image || i.repoTags.includes(image) || i.id === image);
  }

  async imageStatus(image: string, _o?: CallOptions): Promise<Image | null> {
    this.record('imageStatus', [image]);
    return [...this.images.values()].find((i) => i.repoTags.includes(image) || i.id === image) ?? null;
  }

  async pullImage(req: PullImageRequest, _o?: CallOptions): Promise<string> {
    this.record('pullImage', [req]);
    const existing = [...this.images.values()].find((i) => i.repoTags.includes(req.image));
    return (existing ?? this.addImage(req.image)).id;
  }

  async imageFsInfo(_o?: CallOptions): Promise<ImageFsInfo> {
    this.record('imageFsInfo', []);
    const usedBytes = [...this.images.values()].reduce((n, i) => n + i.size, 0);
    return { imageFilesystems: [{ timestampNs: 0n, mountpoint: '/fake/images', usedBytes, inodesUsed: this.images.size }], containerFilesystems: [] };
  }
}
