// Seeded fuzzing of the whole HTTP path: ≥100,000 random and mutated AdmissionReviews through inject. Every reply
// must be a well-formed AdmissionReview echoing apiVersion and uid, or a 400 for a malformed envelope — never a
// 5xx and never a thrown error. A refusal with code 500 means a domain function threw on a shape the decode step
// (admission/decode-object.ts) should have refused with a 400, so it fails the test too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionCaches, staticCache } from './caches.js';
import { makeRoutes } from './handlers/index.js';
import { testApp } from './test-helpers.js';
import { seededRandom } from '../shared/testing/random.js';

const TOTAL = 100_000;
const SEED = 0x5eed_c0de;


const KEYS = ['metadata', 'spec', 'name', 'namespace', 'labels', 'annotations', 'containers', 'initContainers', 'image', 'env', 'volumes', 'selector',
  'matchLabels', 'podName', 'images', 'tags', 'tag', 'createdAt', 'pullPolicy', 'resource', 'targets', 'x', '', 'constructor', 'toString', 'hasOwnProperty'];

function randomValue(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 3 ? 6 : 8));
  switch (k) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return Math.floor((r() - 0.5) * 2 ** (r() * 60));
    case 3: return r() * 1e6 - 5e5;
    case 4: return ['', 'a', 'nginx:1.25', 'Always', 'CREATE', '10%', 'ns/name', '\u0000', 'ü', 'x'.repeat(300)][Math.floor(r() * 10)];
    case 5: return KEYS[Math.floor(r() * KEYS.length)];
    case 6: return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 5); i > 0; i--) o[KEYS[Math.floor(r() * KEYS.length)]!] = randomValue(r, depth + 1);
      return o;
    }
  }
}

/** Replaces or deletes one randomly chosen node of a JSON tree (in place). */
function mutate(root: any, r: () => number): void {
  let node = root;
  for (let depth = 0; depth < 8; depth++) {
    if (typeof node !== 'object' || node === null) return;
    const keys = Object.keys(node);
    if (keys.length === 0) return;
    const key = keys[Math.floor(r() * keys.length)]!;
    const child = node[key];
    if (r() < 0.35 || typeof child !== 'object' || child === null) {
      if (r() < 0.25) { if (Array.isArray(node)) node.splice(Number(key), 1); else delete node[key]; }
      else node[key] = randomValue(r, 2);
      return;
    }
    node = child;
  }
}

const pod: any = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' } }, spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'nginx:1.25', env: [{ name: 'A', value: '1' }] }] }, status: { phase: 'Running', containerStatuses: [{ name: 'app', containerID: 'containerd://abc', restartCount: 0 }] } };
const objects: Record<string, { kind: string; object: unknown }> = {
  '/mutate-pod': { kind: 'Pod', object: pod },
  '/mutate-apps-kruise-io-v1alpha1-sidecarset': { kind: 'SidecarSet', object: { metadata: { name: 's' }, spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'side', image: 'busybox' }] } } },
  '/validate-apps-kruise-io-v1alpha1-sidecarset': { kind: 'SidecarSet', object: { metadata: { name: 's', annotations: {} }, spec: { selector: { matchLabels: { app: 'web' } }, updateStrategy: { type: 'RollingUpdate' }, containers: [{ name: 'side', image: 'busybox', podInjectPolicy: 'BeforeAppContainer', shareVolumePolicy: { type: 'disabled' }, upgradeStrategy: { upgradeType: 'ColdUpgrade' } }] } } },
  '/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest': { kind: 'ContainerRecreateRequest', object: { metadata: { name: 'c', namespace: 'default' }, spec: { podName: 'web-1', containers: [{ name: 'app' }], strategy: {} } } },
  '/mutate-apps-kruise-io-v1alpha1-imagepulljob': { kind: 'ImagePullJob', object: { metadata: { name: 'j', namespace: 'default' }, spec: { image: 'nginx:1.25', completionPolicy: {} } } },
  '/validate-apps-kruise-io-v1alpha1-imagepulljob': { kind: 'ImagePullJob', object: { metadata: { name: 'j', namespace: 'default' }, spec: { image: 'nginx:1.25', completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } } } },
  '/mutate-apps-kruise-io-v1alpha1-nodeimage': { kind: 'NodeImage', object: { metadata: { name: 'n1' }, spec: { images: { nginx: { tags: [{ tag: '1.25' }] } } } } },
  '/validate-apps-kruise-io-v1alpha1-nodeimage': { kind: 'NodeImage', object: { metadata: { name: 'n1' }, spec: { images: { nginx: { tags: [{ tag: '1.25', createdAt: '2026-01-01T00:00:00Z', pullPolicy: { ttlSecondsAfterFinished: 300 } }] } } } } },
  '/validate-apps-kruise-io-v1alpha1-resourcedistribution': { kind: 'ResourceDistribution', object: { metadata: { name: 'rd' }, spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }, targets: { allNamespaces: true } } } },
};

/** The production handler table with every domain function behind it. */
function buildFuzzApp() {
  const caches = admissionCaches(
    { sidecarSets: staticCache([objects['/validate-apps-kruise-io-v1alpha1-sidecarset']!.object as never]), namespaces: staticCache([{ metadata: { name: 'default', labels: {} } }]), revisions: staticCache([]), configMaps: staticCache([]) },
    { fetchPod: async (_ns, name) => (name === 'web-1' ? structuredClone(pod) : undefined), fetchNode: async (name) => ({ metadata: { name } }) },
  );
  const gates = { PodWebhook: true, KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: true, SidecarSetPatchPodMetadataDefaultsAllowed: false };
  const routes = makeRoutes({ caches, gates, now: () => new Date('2026-01-02T03:04:05Z'), random: seededRandom(1) });
  return testApp(routes).app;
}

const paths = Object.keys(objects);
const OPS = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

function generate(r: () => number, i: number): { path: string; body: unknown } {
  const path = paths[Math.floor(r() * paths.length)]!;
  const { kind, object } = objects[path]!;
  const body: any = {
    apiVersion: r() < 0.5 ? 'admission.k8s.io/v1' : 'admission.k8s.io/v1beta1',
    kind: 'AdmissionReview',
    request: {
      uid: `uid-${i}`,
      kind: { group: kind === 'Pod' ? '' : 'apps.kruise.io', version: kind === 'Pod' ? 'v1' : 'v1alpha1', kind },
      resource: { group: '', version: 'v1', resource: kind === 'Pod' ? 'pods' : `${kind.toLowerCase()}s` },
      namespace: 'default',
      operation: OPS[Math.floor(r() * (r() < 0.8 ? 2 : 4))],
      userInfo: { username: 'fuzz' },
      object: structuredClone(object),
      ...(r() < 0.4 ? { oldObject: structuredClone(object) } : {}),
    },
  };
  const roll = r();
  if (roll < 0.05) return { path, body: randomValue(r, 0) };
  const rounds = roll < 0.3 ? 1 : roll < 0.7 ? 2 + Math.floor(r() * 3) : 0;
  const target = r() < 0.85 ? body.request.object : body;
  for (let k = 0; k < rounds; k++) mutate(r() < 0.9 ? target : body, r);
  return { path, body };
}

function checkReply(status: number, text: string, sent: any): string | null {
  if (status === 400) return null;
  if (status !== 200) return `status ${status}: ${text.slice(0, 200)}`;
  let reply: any;
  try { reply = JSON.parse(text); } catch { return `non-JSON 200 reply: ${text.slice(0, 200)}`; }
  if (reply.kind !== 'AdmissionReview' || reply.apiVersion !== sent?.apiVersion) return `bad envelope ${text.slice(0, 200)}`;
  const res = reply.response;
  if (!res || res.uid !== sent.request?.uid || typeof res.allowed !== 'boolean') return `bad response ${text.slice(0, 200)}`;
  if (!res.allowed && res.status?.code >= 500) return `server error ${res.status.code}: ${res.status.message}`;
  if (!res.allowed && ![400, 403, 422].includes(res.status?.code)) return `refusal without a code ${text.slice(0, 200)}`;
  if (res.patch !== undefined) {
    if (res.patchType !== 'JSONPatch') return 'patch without patchType';
    const ops = JSON.parse(Buffer.from(res.patch, 'base64').toString('utf8'));
    if (!Array.isArray(ops) || ops.length === 0) return 'empty or non-array patch';
  }
  return null;
}

test(`${TOTAL} random and mutated reviews all get a well-formed AdmissionReview or a 400`, { timeout: 600_000 }, async () => {
  const app = buildFuzzApp();
  await app.ready();
  const r = seededRandom(SEED);
  const counts: Record<string, number> = {};
  const problems: string[] = [];
  // Distinct problems (uid-free) with how often each occurred, so one noisy failure does not hide the others.
  const distinct = new Map<string, number>();
  const BATCH = 50;
  for (let i = 0; i < TOTAL; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, TOTAL - i) }, (_, j) => generate(r, i + j));
    const replies = await Promise.all(batch.map((b) => app.inject({ method: 'POST', url: b.path, payload: JSON.stringify(b.body), headers: { 'content-type': 'application/json' } })));
    replies.forEach((res, j) => {
      const problem = checkReply(res.statusCode, res.body, batch[j]!.body);
      const key = res.statusCode === 200 ? `200 ${res.json().response.allowed ? 'allowed' : res.json().response.status.code}` : `${res.statusCode}`;
      counts[key] = (counts[key] ?? 0) + 1;
      if (!problem) return;
      const p = `${batch[j]!.path}: ${problem}`;
      if (!distinct.has(p) && problems.length < 20) problems.push(p);
      distinct.set(p, (distinct.get(p) ?? 0) + 1);
    });
  }
  await app.close();
  assert.deepEqual(problems, [], `${[...distinct.values()].reduce((a, b) => a + b, 0)} bad replies`);
  // The fuzzer must exercise every outcome class, or it is not testing much; '200 400' includes wrong-typed objects.
  for (const k of ['400', '200 allowed', '200 400', '200 403']) assert.ok((counts[k] ?? 0) > 0, `no ${k} replies: ${JSON.stringify(counts)}`);
  console.log(`fuzz outcome counts: ${JSON.stringify(counts)}`);
});
