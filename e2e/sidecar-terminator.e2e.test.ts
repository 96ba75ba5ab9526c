// SidecarTerminator on the real node (kubelet v1.34 + containerd, the Helm-installed daemon): a Job pod whose sidecar
// a SidecarSet injected with KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT=true completes once its main container exits,
// the sidecar stopped by the daemon through CRR sidecar-termination-<pod uid>; a Job pod whose marked sidecar is
// native is left to the kubelet, which stops it, with one event saying so. The gate is alpha and off by default, as
// upstream's; the e2e install turns it on (harness/cluster/feature-gates.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../shared/api/meta.js';
import { e2eFeatureGates } from './harness/cluster/feature-gates.js';
import { eventually, getJson, kubectl, kubectlOk, serves, stack, untilInjected } from './harness/kube.js';
import { needsPods } from './harness/release.js';

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const gateOn = /(^|,)\s*SidecarTerminator\s*=\s*true/i.test(e2eFeatureGates);
const skip = needsPods(s) || (gateOn ? false : 'FEATURE_GATES does not turn SidecarTerminator on');
const NS = 'e2e-sidecar-terminator';
const SIDECARSET = 'e2e-st-job-sidecar';
const MARKER = { name: 'KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT', value: 'true' };
/** Exits 0 on SIGTERM (the trap runs between one-second sleeps), as a sidecar must for its Job pod to succeed. */
const SIDECAR_CMD = ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'];

interface Event { reason: string; message: string; type: string }
const pod = (name: string) => getJson<Pod>(['pod', '-n', NS, name]);
const events = (name: string) => getJson<{ items: Event[] }>(['events', '-n', NS, '--field-selector', `involvedObject.name=${name},reason=SidecarTerminator`]).items;
const exitCodes = (p: Pod) => Object.fromEntries([...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])]
  .map((c) => [c.name, c.state?.terminated?.exitCode ?? 'running']));

describe('SidecarTerminator on the real node', { skip, timeout: 300_000 }, () => {
  before(async () => {
    kubectlOk(['create', 'namespace', NS]);
    kubectlOk(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: SIDECARSET },
      spec: { namespace: NS, selector: { matchLabels: { app: 'st-job' } }, updateStrategy: { type: 'NotUpdate' },
        containers: [{ name: 'sidecar', image: 'busybox', command: SIDECAR_CMD, env: [MARKER] }] },
    }));
    await untilInjected(NS, { app: 'st-job' }, 'sidecar', 'busybox');
  });
  after(() => {
    kubectl(['delete', 'namespace', NS, '--wait=false']);
    kubectl(['delete', 'sidecarset', SIDECARSET, '--ignore-not-found']);
  });

  it('a Job pod with an injected marked sidecar ends Succeeded after its main container exits, through a CRR', async (t) => {
    if (typeof s === 'string' || !(await serves(s, '/mutate-pod'))) return t.skip('the manager does not serve /mutate-pod');
    kubectlOk(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'job', namespace: NS, labels: { app: 'st-job' } },
      spec: { nodeName: node!.name, restartPolicy: 'Never', terminationGracePeriodSeconds: 5,
        containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'sleep 3'] }] },
    }));
    const created = pod('job');
    assert.deepEqual(created.spec!.containers.map((c) => c.name), ['sidecar', 'main'], 'the SidecarSet injected the sidecar');
    const done = await eventually('pod job Succeeded', () => { const p = pod('job'); return p.status?.phase === 'Succeeded' && p; }, 180_000)
      .catch((err: Error) => { throw new Error(`${err.message}; last status ${JSON.stringify(pod('job').status)}`); });
    assert.deepEqual(exitCodes(done), { sidecar: 0, main: 0 });
    const crr = getJson<{ metadata: { ownerReferences: { kind: string; name: string; uid: string; controller: boolean }[] }; spec: Record<string, unknown>; status?: { phase?: string } }>(
      ['containerrecreaterequest', '-n', NS, `sidecar-termination-${created.metadata!.uid}`]);
    assert.deepEqual(crr.metadata.ownerReferences.map((o) => [o.kind, o.name, o.uid, o.controller]), [['Pod', 'job', created.metadata!.uid, true]]);
    assert.deepEqual((crr.spec.containers as { name: string }[]).map((c) => c.name), ['sidecar']);
    assert.deepEqual(crr.spec.strategy, { forceRecreate: true, failurePolicy: 'Ignore', terminationGracePeriodSeconds: 5 }, 'the webhook filled the pod\'s grace period');
    assert.equal(crr.status?.phase, 'Recreating', 'restartPolicy Never: kubelet does not start the sidecar again, so the CRR waits for its pod to go (as upstream)');
    const ev = await eventually('the SidecarTerminator event', () => events('job').length > 0 && events('job'), 30_000);
    assert.deepEqual(ev.map((e) => [e.type, e.message]), [['Normal', 'Kruise SidecarTerminator is trying to terminate sidecar [sidecar] using crr']]);
  });

  it('ignore-exit-code: the phase is set from the main container first, so a sidecar failing on SIGTERM cannot fail the pod', async () => {
    // quiet-only: its one sidecar is ignore-exit-code, so the pod is marked Succeeded first and its CRR is created
    // for a pod that is no longer active (the CRR webhook admits it for the SidecarTerminated condition).
    // quiet-job: `side` stops through the CRR; once it has ended the pod is marked Succeeded, and `quiet` gets no CRR
    // of its own (one name per pod, §11 quirk 13): the kubelet stops the containers of a pod whose phase is terminal,
    // at its next sync of the pod (a status change alone does not wake it: about a minute).
    const quietCmd = ['sh', '-c', 'trap "exit 1" TERM; while true; do sleep 1; done'];
    const quiet = { name: 'quiet', image: 'busybox', command: quietCmd, env: [MARKER, { name: 'KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE', value: 'true' }] };
    const mainC = { name: 'main', image: 'busybox', command: ['sh', '-c', 'sleep 3'] };
    const create = (name: string, containers: object[]) => {
      kubectlOk(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS },
        spec: { nodeName: node!.name, restartPolicy: 'Never', terminationGracePeriodSeconds: 5, containers } }));
      return pod(name).metadata!.uid!;
    };
    const uids = { 'quiet-only': create('quiet-only', [mainC, quiet]), 'quiet-job': create('quiet-job', [mainC, { name: 'side', image: 'busybox', command: SIDECAR_CMD, env: [MARKER] }, quiet]) };
    const ended = (name: string, n: number) => eventually(`every container of ${name} ended`, () => {
      const p = pod(name);
      const codes = Object.values(exitCodes(p));
      return codes.length === n && codes.every((c) => c !== 'running') && p;
    }, 180_000).catch((err: Error) => { throw new Error(`${err.message}; last status ${JSON.stringify(pod(name).status)}`); });
    const crrOf = (name: keyof typeof uids) =>
      getJson<{ spec: { containers: { name: string }[] } }>(['containerrecreaterequest', '-n', NS, `sidecar-termination-${uids[name]}`]).spec.containers.map((c) => c.name);
    for (const [name, codes, crr] of [['quiet-only', { main: 0, quiet: 1 }, ['quiet']], ['quiet-job', { main: 0, side: 0, quiet: 1 }, ['side']]] as const) {
      const done = await ended(name, Object.keys(codes).length);
      assert.equal(done.status?.phase, 'Succeeded', name);
      assert.deepEqual(exitCodes(done), codes, `${name}: quiet failed on SIGTERM, and the pod still Succeeded`);
      const cond = done.status?.conditions?.find((c) => c.type === 'SidecarTerminated');
      assert.deepEqual([cond?.status, cond?.message], ['True', 'Terminated by Sidecar Terminator'], name);
      assert.deepEqual(crrOf(name), crr, name);
    }
  });

  it('a Job pod whose marked sidecar is native is left to the kubelet, with one event, and ends Succeeded', async () => {
    kubectlOk(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'native-job', namespace: NS },
      spec: { nodeName: node!.name, restartPolicy: 'Never', terminationGracePeriodSeconds: 5,
        initContainers: [{ name: 'proxy', image: 'busybox', restartPolicy: 'Always', command: SIDECAR_CMD, env: [MARKER] }],
        containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'sleep 3'] }] },
    }));
    const uid = pod('native-job').metadata!.uid!;
    const done = await eventually('pod native-job Succeeded', () => { const p = pod('native-job'); return p.status?.phase === 'Succeeded' && p; }, 180_000)
      .catch((err: Error) => { throw new Error(`${err.message}; last status ${JSON.stringify(pod('native-job').status)}`); });
    assert.equal(exitCodes(done).main, 0);
    assert.notEqual(exitCodes(done).proxy, 'running', 'the kubelet stopped the native sidecar');
    const ev = await eventually('the native-sidecar event', () => events('native-job').length > 0 && events('native-job'), 30_000);
    // A few seconds more: further pod updates must not bring a second one.
    await new Promise((r) => setTimeout(r, 3_000));
    assert.equal(events('native-job').length, 1, JSON.stringify(events('native-job')));
    assert.match(ev[0]!.message, /^Kruise SidecarTerminator leaves sidecar \[proxy\] to the kubelet/);
    assert.notEqual(kubectl(['get', 'containerrecreaterequest', '-n', NS, `sidecar-termination-${uid}`]).code, 0, 'no CRR');
  });
});
