// Where each workload kind keeps its pod template, so the CLI can show what the pod webhook would do to the pods
// a controller will create from it.
import type { KubeDocument } from './documents.js';

type Path = readonly string[];

const templatePaths: Record<string, Path> = {
  Deployment: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  ReplicaSet: ['spec', 'template'],
  Job: ['spec', 'template'],
  CloneSet: ['spec', 'template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
};

export function isWorkload(doc: KubeDocument): boolean {
  return doc.kind !== undefined && doc.kind in templatePaths;
}

/** The pod template of a workload document as a Pod object (namespace inherited), or undefined if it has none. */
export function templateAsPod(doc: KubeDocument): Record<string, any> | undefined {
  let node: any = doc;
  for (const key of templatePaths[doc.kind ?? ''] ?? []) node = node?.[key];
  if (!node || typeof node !== 'object') return undefined;
  const metadata = { ...(node.metadata ?? {}) };
  if (!metadata.namespace && doc.metadata?.namespace) metadata.namespace = doc.metadata.namespace;
  // Controllers name pods after the workload, so generateName is what an admission of a real pod would see.
  if (!metadata.name && !metadata.generateName && doc.metadata?.name) metadata.generateName = `${doc.metadata.name}-`;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: node.spec ?? {} };
}

/** Puts an admitted pod's metadata and spec back into a copy of the workload's template. */
export function withTemplate(doc: KubeDocument, pod: Record<string, any>): KubeDocument {
  const copy: any = structuredClone(doc);
  const path = templatePaths[doc.kind ?? '']!;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  const { metadata = {}, spec } = pod;
  const original = node[path[path.length - 1]!]?.metadata ?? {};
  // Keep the template's own identity fields: the webhook may fill them in for a pod, never for a template.
  const templateMeta = { ...metadata };
  for (const k of ['name', 'generateName', 'namespace'] as const) {
    if (original[k] === undefined) delete templateMeta[k];
  }
  node[path[path.length - 1]!] = { ...node[path[path.length - 1]!], metadata: templateMeta, spec };
  return copy;
}
