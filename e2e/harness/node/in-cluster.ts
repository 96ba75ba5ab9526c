// kruise-ts installed from manifests/ with its webhook and controller Deployments and daemon DaemonSet running as
// real pods on the real node, through a kustomize overlay written per run (ports and paths differ per run).
//
// How the pieces reach each other without kube-proxy (the harness has none):
// - The apiserver binds 127.0.0.1 only, so pods on the CNI bridge cannot reach it. The webhook and controller
//   pods therefore run with hostNetwork (the daemon already does; kruise-system is relabelled to admit it) and
//   KUBERNETES_SERVICE_HOST/PORT point at the apiserver's loopback address; everything else (ServiceAccount token,
//   RBAC from manifests/, kube-root-ca.crt) is as in production.
// - Admission stays with the host-process webhook (e2e/harness/cluster/manager.ts), whose URL the webhook
//   configurations carry and which tests stop and restart. The in-cluster webhook serves the same certificate
//   (WEBHOOK_CERT_WRITER=external, Secret kruise-webhook-certs mounted) on its own loopback port and never
//   rewrites the configurations, so the two do not fight; tests call it directly.
// - The controller pod joins the same Lease as the host-process controller; started after it (replicas 0 until a
//   test scales the Deployment up), it is a standby, as a second replica would be.
// - The daemon's runtime socket hostPath is the node's private containerd directory, not /run/containerd.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { freePort } from '../runtime/process.js';
import { REAL_NODE_LABEL, REAL_NODE_TAINT } from './start.js';
import type { RealNodeState } from './stop.js';

export interface InClusterState {
  /** Loopback ports of the in-cluster manager pod's containers (hostNetwork). */
  managerWebhookPort: number;
  managerHealthPort: number;
  controllerHealthPort: number;
  daemonHealthPort: number;
}

const RUNTIME_MOUNT = '/kts-node-runtime';

export interface OverlayInput extends InClusterState {
  manifestsRel: string;
  /** The tree has daemon/main.ts. */
  withDaemon: boolean;
  apiPort: number;
  node: string;
  containerdDir: string;
}

const pin = (node: string) => ({
  nodeSelector: { 'kubernetes.io/hostname': node, [REAL_NODE_LABEL]: 'true' },
  tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }],
});

export function overlay(i: OverlayInput): Record<string, unknown> {
  const apiEnv = [{ name: 'KUBERNETES_SERVICE_HOST', value: '127.0.0.1' }, { name: 'KUBERNETES_SERVICE_PORT', value: String(i.apiPort) }];
  const probes = (port: number) => ({
    readinessProbe: { httpGet: { path: '/readyz', port, host: '127.0.0.1' } },
    livenessProbe: { httpGet: { path: '/healthz', port, host: '127.0.0.1' } },
  });
  // Scaled up by e2e/real-node.e2e.test.ts only: started with the stack, the controller could take the Lease before
  // the host-process controller that other tests stop and replace. (One replica at most: with hostNetwork a second
  // one's ports would clash.)
  const onNode = { replicas: 0, template: { spec: { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet', ...pin(i.node) } } };
  const webhook = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'kruise-webhook', namespace: 'kruise-system' },
    spec: { ...onNode, template: { spec: { ...onNode.template.spec,
      containers: [{
        name: 'webhook',
        env: [...apiEnv,
          { name: 'WEBHOOK_PORT', value: String(i.managerWebhookPort) }, { name: 'HEALTH_PORT', value: String(i.managerHealthPort) },
          { name: 'BIND_ADDRESS', value: '127.0.0.1' }, { name: 'WEBHOOK_CERT_WRITER', value: 'external' },
          { name: 'WEBHOOK_CERT_DIR', value: '/certs' }],
        ...probes(i.managerHealthPort),
        volumeMounts: [{ name: 'certs', mountPath: '/certs', readOnly: true }],
      }],
      volumes: [{ name: 'certs', secret: { secretName: 'kruise-webhook-certs' } }],
    } } },
  };
  const controller = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'kruise-controller-manager', namespace: 'kruise-system' },
    spec: { ...onNode, template: { spec: { ...onNode.template.spec,
      containers: [{
        name: 'controller',
        env: [...apiEnv, { name: 'HEALTH_PORT', value: String(i.controllerHealthPort) }, { name: 'BIND_ADDRESS', value: '127.0.0.1' }],
        ...probes(i.controllerHealthPort),
      }],
    } } },
  };
  // hostNetwork is not `restricted`: only for this harness, whose pods cannot reach the loopback-only apiserver
  // otherwise, kruise-system admits it.
  const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system', labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } } };
  const daemon = {
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'kruise-daemon', namespace: 'kruise-daemon' },
    spec: { template: { spec: {
      // A tree without daemon/main.ts would crash-loop on the real node for the whole run; kwok fakes the rest.
      ...(i.withDaemon ? {} : { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: REAL_NODE_LABEL, operator: 'DoesNotExist' }] }] } } } }),
      containers: [{
        name: 'daemon',
        // An explicit socket, whichever discovery the manifest configures.
        env: [...apiEnv, { name: 'HEALTH_PORT', value: String(i.daemonHealthPort) }, { name: 'CRI_ENDPOINT', value: `unix://${RUNTIME_MOUNT}/containerd.sock` }],
        livenessProbe: { httpGet: { path: '/healthz', port: i.daemonHealthPort, host: '127.0.0.1' } },
        volumeMounts: [{ name: 'kts-node-runtime', mountPath: RUNTIME_MOUNT, readOnly: true }],
      }],
      volumes: [
        { name: 'kts-node-runtime', hostPath: { path: i.containerdDir, type: 'Directory' } },
        // Redirects the manifest's own runtime-socket volume (hostPath /run/containerd), which may not exist here.
        { name: 'runtime-socket', hostPath: { path: i.containerdDir, type: 'Directory' } },
      ],
    } } },
  };
  // hostNetwork turns containerPorts into host ports; the manifest's fixed ones would collide across runs.
  // (`test` fails the apply loudly if manifests/ ever renames the containers.)
  const ports = (container: string, list: { name: string; containerPort: number }[]) => JSON.stringify([
    { op: 'test', path: '/spec/template/spec/containers/0/name', value: container },
    { op: 'replace', path: '/spec/template/spec/containers/0/ports', value: list.map((p) => ({ ...p, protocol: 'TCP' })) },
  ]);
  return {
    apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization',
    resources: [i.manifestsRel],
    patches: [
      { patch: JSON.stringify(namespace) },
      { patch: JSON.stringify(webhook) },
      { patch: JSON.stringify(controller) },
      { patch: JSON.stringify(daemon) },
      { target: { kind: 'Deployment', name: 'kruise-webhook' }, patch: ports('webhook', [
        { name: 'webhook-server', containerPort: i.managerWebhookPort }, { name: 'health', containerPort: i.managerHealthPort }]) },
      { target: { kind: 'Deployment', name: 'kruise-controller-manager' }, patch: ports('controller', [
        { name: 'health', containerPort: i.controllerHealthPort }]) },
    ],
  };
}

/** Writes the overlay under `runDir` (kustomize wants its resources reachable by a relative path). */
export async function writeInClusterOverlay(o: { repoRoot: string; runDir: string; apiPort: number; node: RealNodeState }): Promise<{ dir: string; state: InClusterState }> {
  const state: InClusterState = {
    managerWebhookPort: await freePort(), managerHealthPort: await freePort(), controllerHealthPort: await freePort(), daemonHealthPort: await freePort(),
  };
  const dir = join(o.runDir, 'in-cluster');
  mkdirSync(dir, { recursive: true });
  if (!o.node.containerd) throw new Error('the real node has no containerd');
  const k = overlay({ ...state, manifestsRel: relative(dir, join(o.repoRoot, 'manifests')), apiPort: o.apiPort, node: o.node.name,
    containerdDir: o.node.containerd.dir, withDaemon: existsSync(join(o.repoRoot, 'daemon/main.ts')) });
  writeFileSync(join(dir, 'kustomization.yaml'), JSON.stringify(k, null, 2));
  return { dir, state };
}
