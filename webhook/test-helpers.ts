// Shared by the webhook tests and the benchmark: AdmissionReview builders and a buildApp with quiet test deps.
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../shared/log.js';
import { buildApp } from './app.js';
import type { WebhookRoute } from './admission/route.js';
import { createMetrics, type WebhookMetrics } from './metrics.js';

export interface ReviewOptions {
  apiVersion?: string;
  uid?: string;
  operation?: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  kind?: { group: string; version: string; kind: string };
  resource?: { group: string; version: string; resource: string };
  namespace?: string;
  name?: string;
  subResource?: string;
  object?: unknown;
  oldObject?: unknown;
}

export function review(o: ReviewOptions = {}) {
  return {
    apiVersion: o.apiVersion ?? 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: o.uid ?? 'uid-1',
      kind: o.kind ?? { group: '', version: 'v1', kind: 'Pod' },
      ...(o.resource ? { resource: o.resource } : {}),
      ...(o.subResource ? { subResource: o.subResource } : {}),
      ...(o.namespace ? { namespace: o.namespace } : {}),
      ...(o.name ? { name: o.name } : {}),
      operation: o.operation ?? 'CREATE',
      userInfo: { username: 'tester' },
      object: o.object ?? { metadata: { name: 'p' } },
      ...(o.oldObject !== undefined ? { oldObject: o.oldObject } : {}),
    },
  };
}

export function testApp(routes: WebhookRoute[], opts: { tls?: { key: string; cert: string } } = {}): { app: FastifyInstance; metrics: WebhookMetrics } {
  const metrics = createMetrics();
  const app = buildApp({ log: silentLogger(), routes, metrics, ...(opts.tls ? { tls: opts.tls } : {}) });
  return { app, metrics };
}

/** Decodes a JSON Patch from a response (base64 → ops). */
export const decodePatch = (p: string | undefined) => (p ? JSON.parse(Buffer.from(p, 'base64').toString('utf8')) : undefined);
