// Kubelet's side of CRI for tests: creating pod sandboxes and containers, which the daemon never does.
// It loads the full upstream api.proto from the Go module cache at run time (never committed), so these
// calls are exactly what a kubelet sends.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { upstreamCriProtoPath } from '../../../daemon/cri/upstream-proto.js';
import { toGrpcTarget } from '../../../daemon/cri/grpc-runtime.js';

const TIMEOUT_MS = 30_000;

export interface TestPod {
  name: string;
  namespace: string;
  uid: string;
}

export interface TestContainerSpec {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  annotations?: Record<string, string>;
  /** kubelet's attempt (= the restart count): each restart of a container creates a new one with attempt + 1. */
  attempt?: number;
}

let pkg: grpc.GrpcObject | undefined;
function runtimeV1(): grpc.GrpcObject {
  pkg ??= grpc.loadPackageDefinition(
    protoLoader.loadSync(upstreamCriProtoPath(), { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true }),
  );
  return (pkg.runtime as grpc.GrpcObject).v1 as grpc.GrpcObject;
}

/** The labels kubelet puts on every sandbox; containers add io.kubernetes.container.name. */
export const podLabels = (pod: TestPod): Record<string, string> => ({
  'io.kubernetes.pod.name': pod.name,
  'io.kubernetes.pod.namespace': pod.namespace,
  'io.kubernetes.pod.uid': pod.uid,
});

export class KubeletCri {
  private readonly client: grpc.Client;
  constructor(endpoint: string, private readonly logRoot: string) {
    const Ctor = runtimeV1().RuntimeService as grpc.ServiceClientConstructor;
    this.client = new Ctor(toGrpcTarget(endpoint), grpc.credentials.createInsecure());
  }

  call<Res = any>(method: string, req: object, timeoutMs = TIMEOUT_MS): Promise<Res> {
    return new Promise((resolve, reject) => {
      (this.client as any)[method](req, { deadline: Date.now() + timeoutMs }, (err: grpc.ServiceError | null, res: Res) =>
        err ? reject(Object.assign(new Error(`${method}: ${err.details || err.message}`), { code: err.code })) : resolve(res));
    });
  }

  /** Host-network sandbox: no CNI is needed, like a hostNetwork pod. */
  sandboxConfig(pod: TestPod): object {
    return {
      metadata: { name: pod.name, uid: pod.uid, namespace: pod.namespace, attempt: 0 },
      logDirectory: `${this.logRoot}/${pod.namespace}_${pod.name}_${pod.uid}`,
      labels: { ...podLabels(pod), 'io.kubernetes.container.name': 'POD' },
      annotations: {},
      linux: { securityContext: { namespaceOptions: { network: 'NODE', pid: 'CONTAINER', ipc: 'POD' } } },
    };
  }

  async runPodSandbox(pod: TestPod): Promise<string> {
    const r = await this.call('RunPodSandbox', { config: this.sandboxConfig(pod), runtimeHandler: '' }, 60_000);
    return r.podSandboxId as string;
  }

  /** Creates and starts a container labelled the way kubelet labels it; returns its CRI id. */
  async startContainer(sandboxId: string, pod: TestPod, c: TestContainerSpec): Promise<string> {
    const attempt = c.attempt ?? 0;
    const config = {
      metadata: { name: c.name, attempt },
      image: { image: c.image },
      command: c.command ?? [],
      args: c.args ?? [],
      labels: { ...podLabels(pod), 'io.kubernetes.container.name': c.name },
      annotations: { 'io.kubernetes.container.restartCount': String(attempt), ...c.annotations },
      logPath: `${c.name}/${attempt}.log`,
      linux: { securityContext: { namespaceOptions: { network: 'NODE', pid: 'CONTAINER', ipc: 'POD' } } },
    };
    const created = await this.call('CreateContainer', { podSandboxId: sandboxId, config, sandboxConfig: this.sandboxConfig(pod) });
    await this.call('StartContainer', { containerId: created.containerId });
    return created.containerId as string;
  }

  /** Stops and removes every sandbox (and with it its containers). */
  async removeAllSandboxes(): Promise<void> {
    const r = await this.call('ListPodSandbox', {});
    for (const s of r.items ?? []) {
      await this.call('StopPodSandbox', { podSandboxId: s.id });
      await this.call('RemovePodSandbox', { podSandboxId: s.id });
    }
  }

  close(): void {
    this.client.close();
  }
}
