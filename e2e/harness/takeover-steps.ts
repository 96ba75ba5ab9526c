// The steps of e2e/takeover.e2e.test.ts that change the cluster: kruise-ts removed as OpenKruise's manager would be,
// an OpenKruise era's CRDs and objects written straight to the apiserver (no webhook runs meanwhile, as after
// `helm uninstall kruise`), and kruise-ts installed over them the way README's "Migrate from OpenKruise" says.
import { spawnSync } from 'node:child_process';
import type { StackState } from './cluster/state.js';
import { eventually, getJson, kubectl, kubectlOk } from './kube.js';
import { releaseServing } from './node/helm-install.js';
import { REAL_NODE_LABEL } from './node/index.js';
import { pods, rolledOut } from './release.js';
import { crdName, PLURALS, v18Crd, v19Crd, type Plural } from './takeover-crds.js';
import {
  controllerRevision, DAEMON_CONFIG_NS, imagePullJob, imagePullJobStatus, injectedPod, MANAGER_NS, nodeImage, nodeImageStatus,
  PULL_SECRET, SET_KINDS, setName, sidecarSet, sidecarSetStatus, V18, type Era, type SetKind,
} from './takeover-fixtures.js';

type Json = Record<string, any>;

/** Pods per SidecarSet. */
export const PODS: Record<SetKind, number> = { plain: 2, ns: 1, cv: 1 };
export const podNames = (era: Era, kind: SetKind) => Array.from({ length: PODS[kind] }, (_, i) => `${setName(era, kind)}-${i}`);
/** `<plural>.<version>.apps.kruise.io`: kubectl otherwise picks the group's preferred version. */
export const res = (plural: Plural, version: string) => `${plural}.${version.replace(/^apps\.kruise\.io\//, '')}.apps.kruise.io`;
/** The kwok node whose NodeImage the era wrote (no daemon runs there to change its status). */
export const fixtureNode = (era: Era) => (era === V18 ? 'kwok-node-1' : 'kwok-node-2');

export function helm(st: StackState, args: string[]): string {
  const r = spawnSync(st.helm!, args, { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname, timeout: 300_000, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`helm ${args.join(' ')} failed: ${r.stderr || r.error?.message || `signal ${r.signal}`}`);
  return r.stdout;
}

const create = <T = Json>(obj: object): T => JSON.parse(kubectlOk(['create', '-o', 'json', '-f', '-'], JSON.stringify(obj))) as T;

function putStatus(resource: string, name: string, status: object, namespace?: string): Json {
  return JSON.parse(kubectlOk(['patch', resource, name, ...(namespace ? ['-n', namespace] : []), '--subresource=status', '--type=merge',
    '-p', JSON.stringify({ status }), '-o', 'json'])) as Json;
}

/** ImagePullJobs keep their deletion-protection finalizer while no controller runs: drop it so they (and the CRD) can go. */
function releaseJobs(namespace?: string): void {
  const r = kubectl(['get', 'imagepulljobs.apps.kruise.io', ...(namespace ? ['-n', namespace] : ['-A']), '-o', 'json']);
  if (r.code !== 0) return;
  for (const j of (JSON.parse(r.stdout) as { items: Json[] }).items) {
    kubectl(['patch', 'imagepulljobs.apps.kruise.io', '-n', j.metadata.namespace, j.metadata.name, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  }
}

/** The era's namespace and everything in it gone (pods, the job), plus its SidecarSets and its NodeImage. */
export async function deleteEra(era: Era): Promise<void> {
  releaseJobs(era.namespace);
  kubectl(['delete', 'namespace', era.namespace, '--ignore-not-found', '--wait=false']);
  kubectl(['delete', 'sidecarsets.apps.kruise.io', ...SET_KINDS.map((k) => setName(era, k)), '--ignore-not-found']);
  kubectl(['delete', 'nodeimages.apps.kruise.io', fixtureNode(era), '--ignore-not-found']);
  kubectl(['delete', 'controllerrevisions', '-n', MANAGER_NS, '-l', `kruise.io/sidecarset-name in (${SET_KINDS.map((k) => setName(era, k)).join(',')})`, '--ignore-not-found']);
  releaseJobs(era.namespace);
  await eventually(`namespace ${era.namespace} gone`, () => kubectl(['get', 'namespace', era.namespace]).code !== 0, 180_000);
}

/**
 * kruise-ts gone as OpenKruise's manager goes in a migration: the release uninstalled, its namespaces gone, and
 * (unlike a migration, which keeps them) the three CRDs deleted so that the era can install its own.
 */
export async function removeKruiseTs(st: StackState): Promise<void> {
  const r = spawnSync(st.helm!, ['uninstall', st.release!.name], { encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0 && !/not found/.test(r.stderr)) throw new Error(`helm uninstall failed: ${r.stderr}`);
  // Namespaces a scenario made itself (a failure before Helm adopted them) are not the release's: delete them too.
  kubectl(['delete', 'namespace', 'kruise-system', 'kruise-daemon', 'kruise-daemon-config', '--ignore-not-found', '--wait=false']);
  kubectlOk(['wait', '--for=delete', 'namespace/kruise-system', 'namespace/kruise-daemon', 'namespace/kruise-daemon-config', '--timeout=300s']);
  releaseJobs();
  kubectlOk(['delete', 'crd', ...PLURALS.map(crdName), '--ignore-not-found', '--timeout=180s']);
}

/** `helm upgrade --install --take-ownership --force-conflicts` (README, "Migrate from OpenKruise"), then serving. */
export async function installKruiseTs(st: StackState): Promise<void> {
  helm(st, ['upgrade', '--install', '--take-ownership', '--force-conflicts', st.release!.name, 'charts/kruise-ts', '-f', st.release!.valuesFile]);
  try {
    await rolledOut('webhook');
    await rolledOut('controller-manager');
    await eventually('a pod admitted through the Service', () => releaseServing(process.env.KUBECONFIG!), 120_000);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${diagnostics()}`);
  }
}

/** Why the install does not serve: each manager pod's readiness and log tail, and the SidecarSet CRD's conversion. */
function diagnostics(): string {
  const out: string[] = [];
  for (const c of ['webhook', 'controller-manager']) {
    for (const p of pods(c as 'webhook')) {
      // The distinct messages of the last lines, each cut short: the JSON lines repeat stack traces.
      const lines = new Set(kubectl(['logs', '-n', MANAGER_NS, p.metadata.name, '--tail=40']).stdout.split('\n').filter(Boolean).map((l) => {
        try { const j = JSON.parse(l) as Json; return `${j.msg}${j.err ? `: ${String(j.err.message).slice(0, 240)}` : ''}`; } catch { return l.slice(0, 240); }
      }));
      out.push(`--- ${p.metadata.name} (${p.status.phase}, ready ${JSON.stringify(p.status.containerStatuses?.map((s) => s.ready))})`, ...lines);
    }
  }
  const cc = kubectl(['get', 'crd', crdName('sidecarsets'), '-o', 'jsonpath={.spec.conversion}']).stdout;
  out.push(`--- sidecarsets conversion: ${cc.replace(/"caBundle":"([^"]{0,16})[^"]*"/, '"caBundle":"$1…"')}`);
  return out.join('\n');
}

export interface PodPrint { uid: string; containers: string[]; annotations: Record<string, string>; started: string[] }

/** What must not change on a pod: uid, containers as injected, annotations, and each container's id and restarts. */
export const podPrint = (p: Json): PodPrint => ({
  uid: p.metadata.uid,
  containers: (p.spec.containers as Json[]).map((c) => `${c.name}=${c.image}`),
  annotations: p.metadata.annotations ?? {},
  started: ((p.status.containerStatuses ?? []) as Json[]).map((c) => `${c.name}:${c.containerID}:${c.restartCount}`).sort(),
});

export interface EraState {
  sets: Record<SetKind, Json>;
  revisions: Record<SetKind, string>;
  pods: Map<string, PodPrint>;
  job: Json;
  nodeImage: Json;
}

/**
 * The era's CRDs and objects, as its OpenKruise left them: SidecarSets (defaulted, hashed), a ControllerRevision each
 * in kruise-system, pods injected on the real node and Running, the status its controller wrote, a completed
 * ImagePullJob and its NodeImage with status. `foreignCa`: the CA OpenKruise's webhook served with (v1.9 CRD).
 */
export async function installEra(era: Era, foreignCa: string): Promise<EraState> {
  for (const p of PLURALS) kubectlOk(['create', '-f', '-'], JSON.stringify(era === V18 ? v18Crd(p) : v19Crd(p, foreignCa)));
  // Not `kubectl wait`: it fails on a CRD whose status has no conditions yet.
  await eventually('the CRDs Established', () => PLURALS.every((p) =>
    (getJson<Json>(['crd', crdName(p)]).status?.conditions as Json[] | undefined)?.some((c) => c.type === 'Established' && c.status === 'True')), 60_000);
  for (const ns of [MANAGER_NS, DAEMON_CONFIG_NS]) create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'control-plane': 'openkruise' } } });
  create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: era.namespace } });
  const now = new Date();
  const realNode = getJson<{ items: Json[] }>(['nodes', '-l', REAL_NODE_LABEL]).items[0]!.metadata.name as string;

  const sets = {} as Record<SetKind, Json>;
  const revisions = {} as Record<SetKind, string>;
  for (const k of SET_KINDS) {
    const live = create(sidecarSet(era, k));
    revisions[k] = create<Json>(controllerRevision(era, live)).metadata.name;
    sets[k] = { ...live, status: sidecarSetStatus(live, revisions[k], PODS[k]) };
  }
  for (const k of SET_KINDS) for (const name of podNames(era, k)) create(injectedPod(era, k, name, realNode, Object.values(sets), now));
  const all = SET_KINDS.flatMap((k) => podNames(era, k));
  const pods = await eventually(`${all.length} ${era.release} pods Running and Ready`, () => {
    const items = getJson<{ items: Json[] }>(['pods', '-n', era.namespace]).items;
    return items.length === all.length && items.every((p) => p.status.phase === 'Running' && (p.status.containerStatuses ?? []).length === 2 &&
      (p.status.containerStatuses as Json[]).every((c) => c.ready)) && items;
  }, 180_000);
  for (const k of SET_KINDS) sets[k] = putStatus(res('sidecarsets', era.apiVersion), setName(era, k), sets[k]!.status);

  if (era === V18) {
    kubectlOk(['create', 'secret', 'docker-registry', PULL_SECRET, '-n', DAEMON_CONFIG_NS, '--docker-server=registry.example', '--docker-username=u', '--docker-password=p']);
  }
  const started = new Date(now.getTime() - 60_000);
  const jobRes = res('imagepulljobs', era.apiVersion);
  const created = create<Json>(imagePullJob(era, fixtureNode(era)));
  const job = putStatus(jobRes, created.metadata.name, imagePullJobStatus(started, now), era.namespace);
  const node = getJson<Json>(['node', fixtureNode(era)]);
  create(nodeImage(era, { name: node.metadata.name, labels: node.metadata.labels ?? {} }, job.metadata, started));
  const ni = putStatus(res('nodeimages', era.apiVersion), node.metadata.name, nodeImageStatus(era, started, now));
  return { sets, revisions, pods: new Map(pods.map((p: Json) => [p.metadata.name as string, podPrint(p)])), job, nodeImage: ni };
}
