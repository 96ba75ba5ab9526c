// Optional demo steps, run after the default demo by `bash e2e/cluster.sh demo STEP...` (the default demo's run time
// stays as it is). `hotupgrade`: the article's hot-upgrade demo on its own workload, the CloneSet busybox
// (07b-hotupgrade-cloneset.yaml) with the hot-upgrade SidecarSet of 07-hotupgrade.yaml: busybox-xxxxx 3/3 Running,
// Controlled By CloneSet/busybox, the app hearing v1, then v2 after the SidecarSet image patch, in the same pod.
import { spawnSync } from 'node:child_process';
import type { DemoOptions, DemoTools } from './demo-tools.js';

export interface OptionalStep {
  summary: string;
  run(o: DemoOptions, t: DemoTools): Promise<void>;
}

type PodJson = { metadata: { name: string; uid: string }; status?: { containerStatuses?: { name: string; ready: boolean; image: string; restartCount: number }[] } };

async function hotUpgradeCloneSet(o: DemoOptions, { env, show, json, waitFor, ex, pin, applyPinned }: DemoTools): Promise<void> {
  if (!o.realNode) {
    process.stdout.write('\n# no real node (KRUISE_TS_REAL_NODE=0): the hot upgrade needs a kubelet, skipped\n');
    return;
  }
  // 07-hotupgrade.yaml also holds a Deployment labelled app=hotupgrade: only the (unlabelled) SidecarSet is taken.
  show(`kubectl apply -f ${ex('07-hotupgrade.yaml')} -l '!app'`);
  const probe = "kubectl run webhook-probe --image=nginx --labels=app=hotupgrade --dry-run=server -o jsonpath='{.spec.containers[*].name}'";
  await waitFor('the webhook to inject hotupgrade-sidecarset', () => (spawnSync('bash', ['-c', probe], { encoding: 'utf8', env, timeout: 30_000 }).stdout ?? '').includes('sidecar-1'), 30_000);
  show(applyPinned(ex('07b-hotupgrade-cloneset.yaml'), pin?.template));
  const pod = () => json<{ items: PodJson[] }>(['get', 'pods', '-l', 'app=hotupgrade'])?.items[0];
  await waitFor('busybox-xxxxx 3/3 Running', () => {
    const c = pod()?.status?.containerStatuses ?? [];
    return c.length === 3 && c.every((x) => x.ready);
  }, 240_000);
  const first = pod()!;
  const name = first.metadata.name;
  show('kubectl get clone busybox');
  show('kubectl get pods -l app=hotupgrade');
  show(`kubectl describe pod ${name} | grep 'Controlled By'`);
  const logs = () => spawnSync('kubectl', ['logs', name, '-c', 'busybox'], { encoding: 'utf8', env, timeout: 30_000 }).stdout ?? '';
  await waitFor('the app to hear v1', () => logs().includes('This is version(v1) sidecar'), 60_000);
  show(`kubectl logs ${name} -c busybox | tail -2`);

  show(`kubectl patch sidecarset hotupgrade-sidecarset --type='json' -p='[{"op": "replace", "path": "/spec/containers/0/image", "value": "openkruise/hotupgrade-sample:sidecarv2"}]'`);
  await waitFor('v2 serving from sidecar-2 and sidecar-1 reset to the empty image, in the same pod', () => {
    const p = pod();
    const images = Object.fromEntries((p?.status?.containerStatuses ?? []).map((c) => [c.name, c.image]));
    return p?.metadata.uid === first.metadata.uid && images['sidecar-2'] === 'docker.io/openkruise/hotupgrade-sample:sidecarv2' &&
      images['sidecar-1'] === 'docker.io/openkruise/hotupgrade-sample:empty' && logs().includes('This is version(v2) sidecar');
  }, 300_000);
  show('kubectl get pods -l app=hotupgrade');
  show(`kubectl logs ${name} -c busybox | grep -m1 -B1 'version(v2)'`);
  show(`kubectl get pod ${name} -o jsonpath='{range .status.containerStatuses[*]}{.name}{"\\t"}{.image}{"\\t"}{.restartCount}{"\\n"}{end}'`);
}

export const optionalSteps: Record<string, OptionalStep> = {
  hotupgrade: { summary: 'the article\'s hot-upgrade demo on CloneSet busybox (07b) with the hot-upgrade SidecarSet (07)', run: hotUpgradeCloneSet },
};
