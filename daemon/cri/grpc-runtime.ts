// RuntimeService + ImageService over @grpc/grpc-js on the runtime's unix socket, loading our own cri.proto
// at runtime (no generated code). Every call carries a deadline; failures become CriError (errors.ts).
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { CriError, criErrorFromGrpc, isCriError } from './errors.js';
import type { CallOptions, ContainerFilter, ImageService, PullImageRequest, RuntimeService } from './runtime.js';
import {
  containerFilterToWire, containerFromWire, containerStatusFromWire, fsUsageFromWire, imageFromWire, pullRequestToWire,
} from './wire.js';

export const CRI_PROTO_PATH = fileURLToPath(new URL('./cri.proto', import.meta.url));

/** kubelet's default --runtime-request-timeout. */
export const DEFAULT_TIMEOUT_MS = 2 * 60_000;
/** Pulls block until the image is unpacked; the puller normally passes its own (spec §2.6) timeout. */
export const DEFAULT_PULL_TIMEOUT_MS = 10 * 60_000;
/** ExecSync's own timeout is enforced by the runtime; the RPC deadline only needs to outlive it. */
const EXEC_DEADLINE_MARGIN_MS = 5_000;
/** Spec §1.3: the image client raises the receive limit to 16 MiB (ListImages on busy nodes is large). */
const MAX_RECEIVE_BYTES = 16 * 1024 * 1024;

export interface CriEndpointOptions {
  /** `/path/to.sock` or `unix:///path/to.sock`. */
  endpoint: string;
  defaultTimeoutMs?: number;
  pullTimeoutMs?: number;
}

export interface CriConnection {
  runtime: RuntimeService;
  images: ImageService;
  close(): void;
}

let loaded: grpc.GrpcObject | undefined;
function criPackage(): grpc.GrpcObject {
  loaded ??= grpc.loadPackageDefinition(
    protoLoader.loadSync(CRI_PROTO_PATH, { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true }),
  );
  return (loaded.runtime as grpc.GrpcObject).v1 as grpc.GrpcObject;
}

export function toGrpcTarget(endpoint: string): string {
  return endpoint.startsWith('unix:') ? endpoint : `unix://${endpoint}`;
}

type Unary = (req: object, md: grpc.Metadata, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res: any) => void) => grpc.ClientUnaryCall;

function caller(client: grpc.Client, service: string, defaultTimeoutMs: number) {
  return <Res = any>(method: string, req: object, timeoutMs: number = defaultTimeoutMs, signal?: AbortSignal): Promise<Res> =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new CriError('canceled', `${service}/${method}`, 'canceled before it was sent'));
      const fn = (client as unknown as Record<string, Unary>)[method];
      const onAbort = () => call.cancel();
      const call = fn.call(client, req, new grpc.Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) => {
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(criErrorFromGrpc(err, `${service}/${method}`));
        else resolve(res as Res);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
}

export function connectCri(opts: CriEndpointOptions): CriConnection {
  const pkg = criPackage();
  const target = toGrpcTarget(opts.endpoint);
  const creds = grpc.credentials.createInsecure();
  const channelOpts = { 'grpc.max_receive_message_length': MAX_RECEIVE_BYTES };
  const RuntimeClient = pkg.RuntimeService as grpc.ServiceClientConstructor;
  const ImageClient = pkg.ImageService as grpc.ServiceClientConstructor;
  const rt = new RuntimeClient(target, creds, channelOpts);
  const img = new ImageClient(target, creds, channelOpts);
  const defaultMs = opts.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const pullMs = opts.pullTimeoutMs ?? DEFAULT_PULL_TIMEOUT_MS;
  const rtCall = caller(rt, 'RuntimeService', defaultMs);
  const imgCall = caller(img, 'ImageService', defaultMs);

  const runtime: RuntimeService = {
    async version(o?: CallOptions) {
      const r = await rtCall('Version', { version: '0.1.0' }, o?.timeoutMs);
      return { version: r.version, runtimeName: r.runtimeName, runtimeVersion: r.runtimeVersion, runtimeApiVersion: r.runtimeApiVersion };
    },
    async listContainers(filter?: ContainerFilter, o?: CallOptions) {
      const r = await rtCall('ListContainers', { filter: containerFilterToWire(filter) ?? null }, o?.timeoutMs);
      return (r.containers ?? []).map(containerFromWire);
    },
    async containerStatus(containerId: string, o?: CallOptions) {
      const r = await rtCall('ContainerStatus', { containerId, verbose: false }, o?.timeoutMs);
      if (!r.status) throw new CriError('not-found', 'RuntimeService/ContainerStatus', `container ${containerId}: empty status`);
      return containerStatusFromWire(r.status);
    },
    async stopContainer(containerId: string, timeoutSeconds: number, o?: CallOptions) {
      // The RPC blocks for up to the grace period before the runtime kills, so the deadline must outlast it.
      const deadline = o?.timeoutMs ?? Math.max(defaultMs, timeoutSeconds * 1000 + EXEC_DEADLINE_MARGIN_MS);
      try {
        await rtCall('StopContainer', { containerId, timeout: String(Math.max(0, Math.floor(timeoutSeconds))) }, deadline);
      } catch (err) {
        // CRI contract (cri-api runtime.v1 api.proto, RuntimeService.StopContainer): "This call is idempotent,
        // and must not return an error if the container has already been stopped." A container that is gone
        // (already stopped and removed, e.g. by kubelet) is the same end state, so NotFound is a finished stop.
        if (isCriError(err, 'not-found')) return;
        throw err;
      }
    },
    async execSync(containerId: string, cmd: string[], timeoutSeconds: number, o?: CallOptions) {
      const deadline = o?.timeoutMs ?? (timeoutSeconds > 0 ? timeoutSeconds * 1000 + EXEC_DEADLINE_MARGIN_MS : defaultMs);
      const r = await rtCall('ExecSync', { containerId, cmd, timeout: String(Math.max(0, Math.floor(timeoutSeconds))) }, deadline);
      return { stdout: Buffer.from(r.stdout ?? []), stderr: Buffer.from(r.stderr ?? []), exitCode: Number(r.exitCode ?? 0) };
    },
  };

  const images: ImageService = {
    async listImages(image?: string, o?: CallOptions) {
      const filter = image ? { image: { image, annotations: {} } } : null;
      const r = await imgCall('ListImages', { filter }, o?.timeoutMs, o?.signal);
      return (r.images ?? []).map(imageFromWire);
    },
    async imageStatus(image: string, o?: CallOptions) {
      const r = await imgCall('ImageStatus', { image: { image, annotations: {} }, verbose: false }, o?.timeoutMs);
      return r.image && r.image.id ? imageFromWire(r.image) : null;
    },
    async pullImage(req: PullImageRequest, o?: CallOptions) {
      const r = await imgCall('PullImage', pullRequestToWire(req), o?.timeoutMs ?? pullMs, o?.signal);
      return r.imageRef as string;
    },
    async imageFsInfo(o?: CallOptions) {
      const r = await imgCall('ImageFsInfo', {}, o?.timeoutMs);
      return {
        imageFilesystems: (r.imageFilesystems ?? []).map(fsUsageFromWire),
        containerFilesystems: (r.containerFilesystems ?? []).map(fsUsageFromWire),
      };
    },
  };

  return { runtime, images, close: () => { rt.close(); img.close(); } };
}
