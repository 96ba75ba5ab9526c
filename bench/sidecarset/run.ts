// `npm run bench:sidecarset [-- --nodes 1000 --pods 10000 --limit-minutes 25 --no-resize]`: the SidecarSet controller at scale on
// its own loopback cluster (harness): its own kwok with wide parallelism for the nodes, pods bound to them in bulk
// through the API (and the injecting webhook), one SidecarSet matching them all (and one with a native sidecar). Prints progress while it runs and
// figures at the end — status latency, a plain-patch baseline, a full rollout at maxUnavailable 10% (time, apiserver
// and controller requests), the resources-only rollout, a second SidecarSet's native sidecar rolled out (image, then
// resources) next to them, controller memory — each with the load average, and asserts nothing about them. Stops
// everything it starts, and stops by itself after --limit-minutes, printing the figures it has.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet, SidecarSetCondition, SidecarSetStatus } from '../../shared/api/sidecarset.js';
import { readConditions } from '../../controller/sidecarset/resize-conditions.js';
import { forEachLimit } from '../../shared/concurrency.js';
import { apiVersionOf, resources } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import { benchRun, numberArg, secs } from '../run-kit.js';
import { startBenchStack } from '../stack.js';
import { compared, measureRollout, NATIVE_SET, nativeSidecarSet, setStatus, type Rollout } from './native.js';
import { apiserverRequests, controllerMetrics, delta, describe, memory, total } from './probes.js';

const NODES = numberArg(process.argv, 'nodes', 1000);
const PODS = numberArg(process.argv, 'pods', 10_000);
const LIMIT_MS = numberArg(process.argv, 'limit-minutes', 25) * 60_000;
/** Client requests the bench keeps in flight when creating or patching objects, and kwok's workers per kind of work. */
const CONCURRENCY = 32;
const NS = 'bench';
const SET = 'bench';
const run = benchRun({ heading: `${NODES} nodes, ${PODS} pods, 2-core machine shared with other work`, limitMs: LIMIT_MS });
const { say, figure, until } = run;

const benchPod = (i: number): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: `bench-${i}`, namespace: NS, labels: { app: 'bench' } },
  spec: { nodeName: `kwok-bench-${i % NODES}`, containers: [{ name: 'app', image: 'nginx:1.7.9' }] },
});

/** The status, with the kruise-ts conditions the annotation carries (OpenKruise's status has no room for them). */
const status = async (rest: KubeRest): Promise<Partial<SidecarSetStatus> & { conditions?: SidecarSetCondition[] }> => {
  const set = await rest.get<SidecarSet>(resources.sidecarSets, { name: SET });
  return { ...(set.status ?? {}), conditions: readConditions(set) };
};
const statusLine = (s: Partial<SidecarSetStatus>) =>
  `status matched ${s.matchedPods ?? 0}, updated ${s.updatedPods ?? 0}, ready ${s.readyPods ?? 0}, updated+ready ${s.updatedReadyPods ?? 0}`;

async function main(): Promise<void> {
  const { cluster, controller, manager, rest, kubelet, nodesReadyMs } = await startBenchStack(run, { name: 'sidecarset', nodes: NODES, namespace: NS, concurrency: CONCURRENCY });
  // The stand-in kubelet reports allocated resources and answers pods/resize, as kubelet 1.34 does (kubelet-resize.ts);
  // --no-resize leaves kwok's status as it is, and the apiserver then refuses every resize.
  kubelet.resize = !process.argv.includes('--no-resize');
  const ctl = () => controllerMetrics(controller.healthPort);
  const mem = async () => {
    if (run.exited()) return `${run.exited()} exited`;
    const m = memory(controller.daemon.pid);
    return `RSS ${m.rss} MB, heap ${(await ctl()).heapMB} MB`;
  };
  say(`${PODS} pods, limit ${LIMIT_MS / 60_000} min`);
  figure('nodes created and Ready (bench kwok)', secs(nodesReadyMs));

  const tSet = Date.now();
  await rest.create<SidecarSet>(resources.sidecarSets, {
    apiVersion: apiVersionOf(resources.sidecarSets), kind: 'SidecarSet', metadata: { name: SET },
    spec: { selector: { matchLabels: { app: 'bench' } }, containers: [{ name: 'sidecar', image: 'busybox:1.35.0', command: ['sleep', '1d'],
        // Requests (Burstable pods) so the resources-only rollout below can resize in place without changing QoS.
        resources: { requests: { cpu: '10m', memory: '16Mi' } } }],
      updateStrategy: { maxUnavailable: '10%' } },
  });
  // A second SidecarSet on the same pods with a native sidecar (kruise-ts updates those in place too).
  await rest.create<SidecarSet>(resources.sidecarSets, nativeSidecarSet({ app: 'bench' }));
  await new Promise((r) => setTimeout(r, 2_000));
  const memIdle = await mem();

  let t = Date.now();
  let created = 0;
  const podsTimer = setInterval(() => void rest.get<SidecarSet>(resources.sidecarSets, { name: SET }).then((s) =>
    say(`  pods: ${created} created (${Math.round(created / ((Date.now() - t) / 1000))}/s), ${kubelet.podsSeen} started by kwok; ${statusLine(s.status ?? {})}`), () => {}), 10_000);
  const apiBeforePods = apiserverRequests(cluster.kubeconfig);
  await forEachLimit(Array.from({ length: PODS }, (_, i) => i), CONCURRENCY, async (i) => { await rest.create<Pod>(resources.pods, benchPod(i)); created++; });
  clearInterval(podsTimer);
  const tLastPod = Date.now();
  figure('pods created through the injecting webhook', `${secs(tLastPod - t)} (${Math.round(PODS / ((tLastPod - t) / 1000))}/s)`);
  await until('status matched', async () => {
    const s = await status(rest);
    return s.matchedPods === PODS && s.updatedPods === PODS;
  }, { everyMs: 100, progress: async () => statusLine(await status(rest)) });
  const tMatched = Date.now();
  figure('status matchedPods = updatedPods = all pods, after the last pod was created (target ≤ 5 s)', `${secs(tMatched - tLastPod)} (${secs(tMatched - tSet)} after the SidecarSet was created)`);

  // Readiness comes at kwok's pace; what the controller owes is reflecting it promptly. From here on the bench plays
  // kubelet too.
  kubelet.startActing();
  await until('status ready', async () => {
    const s = await status(rest);
    return kubelet.podsSeen === PODS && kubelet.unavailableNow === 0 && s.readyPods === PODS && (await setStatus(rest, NATIVE_SET)).readyPods === PODS;
  }, { everyMs: 100, progress: async () => `${kubelet.podsSeen} started by kwok, ${kubelet.unavailableNow} of them unavailable; ${statusLine(await status(rest))}` });
  const tReady = Date.now();
  figure('status readyPods = all pods, after the bench\'s watch saw the last pod become ready', `${secs(tReady - kubelet.lastAvailableAt)} (kwok made all pods ready ${secs(kubelet.lastAvailableAt - tLastPod)} after the last was created)`);
  figure('apiserver requests from the first pod create to correct status', describe(delta(apiBeforePods, apiserverRequests(cluster.kubeconfig))));
  await new Promise((r) => setTimeout(r, 2_000));
  const memLoaded = await mem();

  // Baseline: the least a rollout costs the API — every pod's image patched once by the bench itself, unbatched, and
  // the stand-in kubelet restarting it — measured the same way as the rollout below.
  let apiBefore = apiserverRequests(cluster.kubeconfig);
  let ctlBefore = (await ctl()).requests;
  let patchesBefore = kubelet.patches;
  t = Date.now();
  let patched = 0;
  const patchTimer = setInterval(() => say(`  baseline: ${patched} pods patched, ${kubelet.unavailableNow} unavailable, ${kubelet.patches - patchesBefore} kubelet status patches`), 10_000);
  await forEachLimit(Array.from({ length: PODS }, (_, i) => i), CONCURRENCY, async (i) => {
    // By name: the injected sidecar comes first in the list.
    await rest.patch(resources.pods, { namespace: NS, name: `bench-${i}` }, 'strategic', { spec: { containers: [{ name: 'app', image: 'nginx:1.9.1' }] } });
    patched++;
  });
  clearInterval(patchTimer);
  await until('baseline', async () => kubelet.unavailableNow === 0 && (await status(rest)).readyPods === PODS,
    { progress: async () => `${kubelet.unavailableNow} pods unavailable; ${statusLine(await status(rest))}` });
  const baseline = Date.now() - t;
  const baselineApi = delta(apiBefore, apiserverRequests(cluster.kubeconfig));
  figure('baseline: bench patches every pod\'s app image (unbatched), stand-in kubelet restarts them', `${secs(baseline)} (${(baseline / PODS).toFixed(1)} ms per pod)`);
  figure('baseline apiserver requests', `${describe(baselineApi)} (${(total(baselineApi) / PODS).toFixed(2)} per pod)`);
  figure('baseline: controller requests meanwhile (status only)', describe(delta(ctlBefore, (await ctl()).requests)));
  const memBaseline = await mem();

  apiBefore = apiserverRequests(cluster.kubeconfig);
  ctlBefore = (await ctl()).requests;
  patchesBefore = kubelet.patches;
  kubelet.peakUnavailable = 0;
  t = Date.now();
  const edited = await rest.patch<SidecarSet>(resources.sidecarSets, { name: SET }, 'json', [{ op: 'replace', path: '/spec/containers/0/image', value: 'busybox:1.36.0' }]);
  await until('rollout', async () => {
    const s = await status(rest);
    return s.observedGeneration === edited.metadata?.generation && s.updatedPods === PODS && s.updatedReadyPods === PODS && s.readyPods === PODS;
  }, { progress: async () => `${statusLine(await status(rest))}; most unavailable at once ${kubelet.peakUnavailable}; controller ${await mem()}` });
  const rollout = Date.now() - t;
  const rolloutApi = delta(apiBefore, apiserverRequests(cluster.kubeconfig));
  const rolloutCtl = delta(ctlBefore, (await ctl()).requests);
  figure('full rollout at maxUnavailable 10% (SidecarSet edit to status all updated and ready)', `${secs(rollout)} (${(rollout / PODS).toFixed(1)} ms per pod; ${(rollout / baseline).toFixed(2)}× the baseline)`);
  figure('status after the last pod became available again', secs(Date.now() - kubelet.lastAvailableAt));
  figure('rollout apiserver requests', `${describe(rolloutApi)} (${(total(rolloutApi) / PODS).toFixed(2)} per pod; ${(total(rolloutApi) / total(baselineApi)).toFixed(2)}× the baseline)`);
  figure('rollout controller requests', `${describe(rolloutCtl)} (${(total(rolloutCtl) / PODS).toFixed(2)} per pod)`);
  figure('rollout stand-in kubelet status patches (1 per pod restarted)', String(kubelet.patches - patchesBefore));
  figure(`most pods unavailable at once during the rollout, seen by the bench's watch (budget ${Math.ceil(PODS / 10)})`, String(kubelet.peakUnavailable));

  // Resources only (kruise-ts extension): every pod resized through pods/resize in the same batches, the stand-in
  // kubelet writing each new allocation into the container status; or, with --no-resize (kube-apiserver 1.34 then
  // answers "Pod running on node without support for resize"), every pod's refusal recorded once: the SidecarSet's
  // InPlaceResize condition counts them.
  const resizesBefore = kubelet.resizes;
  patchesBefore = kubelet.patches;
  apiBefore = apiserverRequests(cluster.kubeconfig);
  ctlBefore = (await ctl()).requests;
  t = Date.now();
  const resized = await rest.patch<SidecarSet>(resources.sidecarSets, { name: SET }, 'json',
    [{ op: 'replace', path: '/spec/containers/0/resources', value: { requests: { cpu: '20m', memory: '32Mi' } } }]);
  const refusedAll = (st: { conditions?: SidecarSetCondition[] }) =>
    st.conditions?.find((c) => c.type === 'InPlaceResize')?.message.startsWith(`the API refused the resize of ${PODS} pod(s)`) ?? false;
  let outcome = 'resized';
  await until('resources rollout', async () => {
    const s = await status(rest);
    if (s.observedGeneration !== resized.metadata?.generation) return false;
    if (refusedAll(s)) outcome = 'refused by the apiserver (each pod once, then new pods only)';
    return (s.updatedPods === PODS && s.updatedReadyPods === PODS) || refusedAll(s);
  }, { progress: async () => statusLine(await status(rest)) });
  const resizeRollout = Date.now() - t;
  const resizeCtl = delta(ctlBefore, (await ctl()).requests);
  figure(`resources-only rollout through pods/resize at maxUnavailable 10% (edit to every pod ${outcome})`,
    `${secs(resizeRollout)} (${(resizeRollout / PODS).toFixed(1)} ms per pod; ${(resizeRollout / rollout).toFixed(2)}× the image rollout)`);
  figure('resources-only rollout apiserver requests', `${describe(delta(apiBefore, apiserverRequests(cluster.kubeconfig)))}`);
  figure('resources-only rollout: stand-in kubelet status writes (resized allocations, no restart) / all', `${kubelet.resizes - resizesBefore} / ${kubelet.patches - patchesBefore}`);
  figure('resources-only rollout controller requests', `${describe(resizeCtl)} (${(total(resizeCtl) / PODS).toFixed(2)} per pod)`);

  // Native sidecars (kruise-ts extension), the same batches: the image (kubelet restarts only the native sidecar),
  // then the resources through pods/resize. Next to the rollouts above, with requests per pod.
  const measure = { rest, run, kubelet, pods: PODS, controller: async () => (await ctl()).requests, apiserver: () => apiserverRequests(cluster.kubeconfig) };
  const image: Rollout = { ms: rollout, controller: rolloutCtl, apiserver: rolloutApi };
  const resourcesOnly: Rollout = { ms: resizeRollout, controller: resizeCtl, apiserver: {} };
  const nativeImage = await measureRollout(measure, 'native-sidecar image rollout', NATIVE_SET,
    [{ op: 'replace', path: '/spec/initContainers/0/image', value: 'busybox:1.36.0' }]);
  figure('native-sidecar image rollout at maxUnavailable 10% (edit to every pod updated and ready)', compared(nativeImage, image, PODS));
  figure('native-sidecar image rollout: controller requests / most pods unavailable at once', `${describe(nativeImage.controller)} / ${kubelet.peakUnavailable}`);
  const nativeResize = await measureRollout(measure, 'native-sidecar resources rollout', NATIVE_SET,
    [{ op: 'replace', path: '/spec/initContainers/0/resources', value: { requests: { cpu: '20m', memory: '32Mi' } } }]);
  figure('native-sidecar resources-only rollout through pods/resize', compared(nativeResize, image, PODS));
  figure('native-sidecar resources-only rollout: controller requests', describe(nativeResize.controller));
  figure('this run\'s rollouts: image / resources-only / native image / native resources-only',
    [image, resourcesOnly, nativeImage, nativeResize].map((r) => compared(r, image, PODS)).join(' / '));
  const peak = memory(controller.daemon.pid).peak;
  figure('controller memory: idle / all pods cached / after baseline / after rollout (target RSS ≤ 300 MB)',
    `${memIdle} / ${memLoaded} / ${memBaseline} / ${await mem()}; peak RSS ${peak} MB`);
  figure('webhook manager memory after rollout', `RSS ${memory(manager.daemon.pid).rss} MB, peak ${memory(manager.daemon.pid).peak} MB`);
}

await run.main(main);
