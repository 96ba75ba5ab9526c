// `bash e2e/cluster.sh demo`: the seed article's kubectl session replayed on the fresh cluster, printing the tables
// the article shows. SidecarSet scs-demo (01) and `kubectl get sidecarset`, test-pod (02) 2/2 with the injected
// sidecar, the image patch upgrading sidecar1 in place (same pod, RESTARTS 1), the 3-replica Deployment (05) with
// sidecars, and the ResourceDistribution (12) copies. Pods go to the real node when there is one (kwok fakes them
// otherwise, and the in-place restart, which needs a kubelet, is left out). Every wait has a timeout and a failed
// step stops the demo with what was being waited for; the cluster is left running either way. Optional steps
// (`bash e2e/cluster.sh demo STEP...`, listed in demo-optional.ts) run after it, in the order given.
import { spawnSync } from 'node:child_process';
import { optionalSteps } from './demo-optional.js';
import { DemoStepFailed, demoTools, type DemoOptions, type DemoTools, type PodJson } from './demo-tools.js';

export { DemoStepFailed, demoTools, type DemoOptions, type DemoTools } from './demo-tools.js';

/** Runs the demo, then the optional steps asked for; throws DemoStepFailed naming the step that failed or timed out. */
export async function runDemo(o: DemoOptions): Promise<void> {
  const steps = (o.optional ?? []).map((name) => {
    const step = optionalSteps[name];
    if (!step) throw new DemoStepFailed(`no optional step ${JSON.stringify(name)}; there are: ${Object.keys(optionalSteps).join(', ')}`);
    return step;
  });
  const t = demoTools(o);
  await defaultDemo(o, t);
  for (const step of steps) await step.run(o, t);
}

async function defaultDemo(o: DemoOptions, { env, show, json, waitFor, ex, pin, applyPinned }: DemoTools): Promise<void> {
  show('kubectl get nodes -o wide');
  // kruise-ts as `helm install` put it: the manager Deployments' pods on the real node (none without one).
  show('kubectl get pods -n kruise-system -o wide');
  show(`kubectl apply -f ${ex('01-sidecarset-demo.yaml')}`);
  show('kubectl get sidecarset');
  // The webhook reads SidecarSets from its informer: a pod sent in the moment after the SidecarSet could miss it.
  const probe = `kubectl run webhook-probe --image=nginx --labels=app=nginx --dry-run=server -o jsonpath='{.spec.containers[*].name}'`;
  await waitFor('the webhook to inject scs-demo', () => (spawnSync('bash', ['-c', probe], { encoding: 'utf8', env, timeout: 30_000 }).stdout ?? '').includes('sidecar1'), 30_000);

  show(applyPinned(ex('02-test-pod.yaml'), pin?.pod));
  show('kubectl wait --for=condition=Ready pod/test-pod --timeout=180s');
  show('kubectl get pod test-pod -o wide');
  show("kubectl get pod test-pod -o jsonpath='{range .spec.containers[*]}{.name}{\"\\t\"}{.image}{\"\\t\"}{.env}{\"\\t\"}{.volumeMounts}{\"\\n\"}{end}'");

  if (o.realNode) {
    const before = json<PodJson>(['get', 'pod', 'test-pod']);
    show(`kubectl patch sidecarset scs-demo --type='json' -p='[{"op": "replace", "path": "/spec/containers/0/image", "value": "busybox:1.35.0"}]'`);
    // busybox `sleep` ignores SIGTERM: the kubelet waits out the 30 s grace period before the restart, as in the article.
    await waitFor('sidecar1 restarted in place on busybox:1.35.0 and test-pod Ready again', () => {
      const c = json<PodJson>(['get', 'pod', 'test-pod'])?.status.containerStatuses ?? [];
      const s = c.find((x) => x.name === 'sidecar1');
      return s?.image === 'docker.io/library/busybox:1.35.0' && s.restartCount === 1 && c.every((x) => x.ready);
    }, 180_000);
    const after = json<PodJson>(['get', 'pod', 'test-pod']);
    if (after?.metadata.uid !== before?.metadata.uid) throw new DemoStepFailed('test-pod was recreated instead of upgraded in place');
    await waitFor('scs-demo UPDATED 1 READY 1', () => {
      const st = json<{ status?: { updatedPods?: number; readyPods?: number } }>(['get', 'sidecarset', 'scs-demo'])?.status;
      return st?.updatedPods === 1 && st.readyPods === 1;
    }, 60_000);
    show('kubectl get pod test-pod');
    show('kubectl get sidecarset scs-demo');
    show('kubectl get pod test-pod -o yaml | grep busybox');
    show("kubectl describe pod test-pod | sed -n '/^Events:/,$p'");
  } else {
    process.stdout.write('\n# no real node (KRUISE_TS_REAL_NODE=0): the in-place upgrade needs a kubelet, skipped\n');
  }

  show(applyPinned(ex('05-nginx-deployment.yaml'), pin?.template));
  show('kubectl rollout status deployment/nginx --timeout=180s');
  show('kubectl get pods -l app=nginx');
  show('kubectl get sidecarset');

  show('kubectl create namespace ns-1 && kubectl create namespace ns-4');
  show('kubectl create namespace ns-2 && kubectl create namespace ns-3 && kubectl label namespace ns-2 ns-3 group=test');
  show(`kubectl apply -f ${ex('12-resourcedistribution.yaml')}`);
  await waitFor('game-demo copies in ns-1, ns-2 and ns-4', () => ['ns-1', 'ns-2', 'ns-4'].every((ns) => json(['get', 'configmap', 'game-demo', '-n', ns])), 60_000);
  show('kubectl get configmap -A --field-selector metadata.name=game-demo');
  show('kubectl get configmap game-demo -n ns-1 -o yaml | grep resourcedistribution');
  show('kubectl get resourcedistribution sample');
}
