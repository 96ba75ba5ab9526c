// `npm run bench:cloneset [-- --nodes 100 --replicas 1000 --limit-minutes 15]`: a CloneSet against a Deployment of the
// same size on the bench's own loopback cluster (harness, its own wide kwok, no node lifecycle), in one run: time from
// creation to all Ready, then an image rollout at maxUnavailable 10% — in place for the CloneSet (the bench plays
// kubelet and restarts the changed container), a RollingUpdate (maxSurge 0) for the Deployment — with apiserver
// requests per pod and the controller's memory. Prints figures and ratios, asserts nothing; stops everything it
// starts, and stops by itself after --limit-minutes. The stack is startBenchStack's (bench/stack.ts); figures of
// 1,000-replica runs and what they showed are in README.md beside this file.
import type { V1Deployment } from '@kubernetes/client-node';
import type { CloneSet } from '../../shared/api/cloneset.js';
import { resources, type Resource } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import { benchRun, numberArg, secs } from '../run-kit.js';
import { startBenchStack } from '../stack.js';
import { apiserverRequests, controllerMetrics, delta, describe, memory, total } from '../sidecarset/probes.js';

const NODES = numberArg(process.argv, 'nodes', 100);
const N = numberArg(process.argv, 'replicas', 1000);
const LIMIT_MS = numberArg(process.argv, 'limit-minutes', 15) * 60_000;
const CONCURRENCY = 32;
const NS = 'bench';
const deployments: Resource = { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true };
const run = benchRun({ heading: `${NODES} kwok nodes, ${N} replicas each, 2-core machine shared with other work`, limitMs: LIMIT_MS });
const { say, figure } = run;
/** Polls every 200 ms, progress every 10 s. */
const until = (what: string, f: () => Promise<boolean>, progress: () => Promise<string>) => run.until(what, f, { everyMs: 200, progress });

const template = (app: string) => ({
  metadata: { labels: { app } },
  // The bench's nodes keep kwok's taints (no node lifecycle controller to lift them): tolerate everything.
  spec: { nodeSelector: { type: 'kwok-bench' }, tolerations: [{ operator: 'Exists' }], containers: [{ name: 'app', image: 'nginx:1.7.9', imagePullPolicy: 'IfNotPresent' }] },
});

const cloneSetStatus = async (rest: KubeRest) => (await rest.get<CloneSet>(resources.cloneSets, { namespace: NS, name: 'clone' })).status;
const deploymentStatus = async (rest: KubeRest) => (await rest.get<V1Deployment>(deployments, { namespace: NS, name: 'deploy' })).status;

async function main(): Promise<void> {
  const { cluster, controller, rest, kubelet } = await startBenchStack(run, { name: 'cloneset', nodes: NODES, namespace: NS, concurrency: CONCURRENCY });
  const rss = () => { const m = memory(controller.daemon.pid); return `RSS ${m.rss} MB (peak ${m.peak} MB)`; };
  const ctl = async () => {
    const m = await controllerMetrics(controller.healthPort);
    return `controller ${rss()}, event loop held up to ${m.loopDelayMaxS.toFixed(2)} s`;
  };
  say(`${N} replicas, limit ${LIMIT_MS / 60_000} min`);
  kubelet.startActing();
  const memIdle = rss();

  // 1. CloneSet: creation to all Ready, then an in-place rollout.
  let api = apiserverRequests(cluster.kubeconfig);
  let t = Date.now();
  await rest.create<CloneSet>(resources.cloneSets, {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'clone', namespace: NS },
    spec: { replicas: N, selector: { matchLabels: { app: 'clone' } }, template: template('clone') as never,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '10%' } },
  });
  await until('CloneSet Ready', async () => (await cloneSetStatus(rest))?.readyReplicas === N,
    async () => { const s = await cloneSetStatus(rest); return `replicas ${s?.replicas ?? 0}, ready ${s?.readyReplicas ?? 0}; ${await ctl()}`; });
  const cloneCreate = Date.now() - t;
  const cloneCreateApi = delta(api, apiserverRequests(cluster.kubeconfig));
  figure('CloneSet: creation to all Ready', secs(cloneCreate));
  figure('CloneSet creation: apiserver requests', `${describe(cloneCreateApi)} (${(total(cloneCreateApi) / N).toFixed(2)} per pod)`);
  const memLoaded = rss();

  api = apiserverRequests(cluster.kubeconfig);
  kubelet.peakUnavailable = 0;
  t = Date.now();
  const patched = await rest.patch<CloneSet>(resources.cloneSets, { namespace: NS, name: 'clone' }, 'json', [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.9.1' }]);
  await until('CloneSet in-place rollout', async () => {
    const s = await cloneSetStatus(rest);
    // The status of the edited generation, not the one left from before the edit.
    return (s?.observedGeneration ?? 0) >= (patched.metadata?.generation ?? 0) && s?.updatedReadyReplicas === N && s.readyReplicas === N && s.currentRevision === s.updateRevision;
  }, async () => { const s = await cloneSetStatus(rest); return `updated ${s?.updatedReplicas ?? 0}, updated+ready ${s?.updatedReadyReplicas ?? 0}; most unavailable ${kubelet.peakUnavailable}; ${await ctl()}`; });
  const cloneRollout = Date.now() - t;
  const cloneRolloutApi = delta(api, apiserverRequests(cluster.kubeconfig));
  figure('CloneSet: in-place image rollout at maxUnavailable 10%', secs(cloneRollout));
  figure('CloneSet rollout: apiserver requests', `${describe(cloneRolloutApi)} (${(total(cloneRolloutApi) / N).toFixed(2)} per pod)`);
  figure(`CloneSet rollout: most pods unavailable at once, seen by the bench's watch (budget ${Math.ceil(N / 10)})`, String(kubelet.peakUnavailable));
  const memRollout = rss();
  await rest.delete(resources.cloneSets, { namespace: NS, name: 'clone' });
  await until('CloneSet pods gone', async () => (await rest.list(resources.pods, { namespace: NS, labelSelector: 'app=clone' })).items.length === 0, async () => 'waiting');

  // 2. The same with a Deployment (kube-controller-manager), RollingUpdate maxUnavailable 10%, maxSurge 0.
  api = apiserverRequests(cluster.kubeconfig);
  t = Date.now();
  await rest.create<V1Deployment>(deployments, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'deploy', namespace: NS },
    spec: { replicas: N, selector: { matchLabels: { app: 'deploy' } }, template: template('deploy'),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } } },
  });
  await until('Deployment Ready', async () => (await deploymentStatus(rest))?.readyReplicas === N,
    async () => { const s = await deploymentStatus(rest); return `replicas ${s?.replicas ?? 0}, ready ${s?.readyReplicas ?? 0}`; });
  const deployCreate = Date.now() - t;
  const deployCreateApi = delta(api, apiserverRequests(cluster.kubeconfig));
  figure('Deployment: creation to all Ready', `${secs(deployCreate)} (CloneSet ${(cloneCreate / deployCreate).toFixed(2)}× this)`);
  figure('Deployment creation: apiserver requests', `${describe(deployCreateApi)} (${(total(deployCreateApi) / N).toFixed(2)} per pod)`);
  api = apiserverRequests(cluster.kubeconfig);
  t = Date.now();
  const edited = await rest.patch<V1Deployment>(deployments, { namespace: NS, name: 'deploy' }, 'json', [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.9.1' }]);
  await until('Deployment rolling update', async () => {
    const s = await deploymentStatus(rest);
    return (s?.observedGeneration ?? 0) >= (edited.metadata?.generation ?? 0) && s?.updatedReplicas === N && s.readyReplicas === N && s.replicas === N;
  }, async () => { const s = await deploymentStatus(rest); return `updated ${s?.updatedReplicas ?? 0}, ready ${s?.readyReplicas ?? 0}, replicas ${s?.replicas ?? 0}`; });
  const deployRollout = Date.now() - t;
  const deployRolloutApi = delta(api, apiserverRequests(cluster.kubeconfig));
  figure('Deployment: rolling update (pods recreated)', `${secs(deployRollout)} (CloneSet in place ${(cloneRollout / deployRollout).toFixed(2)}× this)`);
  figure('Deployment rollout: apiserver requests', `${describe(deployRolloutApi)} (${(total(deployRolloutApi) / N).toFixed(2)} per pod; CloneSet ${(total(cloneRolloutApi) / total(deployRolloutApi)).toFixed(2)}× this)`);
  figure('kruise-ts controller memory: idle / CloneSet Ready / after the rollout', `${memIdle} / ${memLoaded} / ${memRollout}`);
}

await run.main(main);
