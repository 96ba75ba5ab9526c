// The CLI end to end on the seed's examples, through runCli (same handlers as the webhook).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import yaml from 'js-yaml';
import { runCli } from './main.js';

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/cluster/examples');
const ex = (f: string) => path.join(examples, f);

async function cli(args: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), stdin: () => stdin });
  return { code, stdout, stderr };
}

/** The one document of `kind` in inject's YAML output (every other document passes through). */
function only(stdout: string, kind: string): any {
  const docs = (yaml.loadAll(stdout) as any[]).filter((d) => d?.kind === kind);
  assert.equal(docs.length, 1, `one ${kind} in the output`);
  return docs[0];
}

test('inject gives the seed test-pod its sidecar first, IS_INJECTED, log-volume and OpenKruise hash annotations', async () => {
  const r = await cli(['inject', '-f', ex('01-sidecarset-demo.yaml'), '-f', ex('02-test-pod.yaml')]);
  assert.equal(r.code, 0, r.stderr);
  const pod = only(r.stdout, 'Pod');
  assert.deepEqual(pod.spec.containers.map((c: any) => c.name), ['sidecar1', 'app']);
  const sidecar = pod.spec.containers[0];
  assert.deepEqual(sidecar.env, [{ name: 'IS_INJECTED', value: 'true' }]);
  assert.deepEqual(sidecar.volumeMounts, [{ name: 'log-volume', mountPath: '/var/log' }]);
  assert.deepEqual(pod.spec.volumes, [{ name: 'log-volume', emptyDir: {} }]);
  const hashes = JSON.parse(pod.metadata.annotations['kruise.io/sidecarset-hash']);
  assert.deepEqual(Object.keys(hashes), ['scs-demo']);
  assert.match(hashes['scs-demo'].hash, /^[bcdfghjklmnpqrstvwxz2456789]{64}$/);
  assert.deepEqual(hashes['scs-demo'].sidecarList, ['sidecar1']);
  assert.equal(pod.metadata.annotations['kruise.io/sidecarset-injected-list'], 'scs-demo');
  assert.ok(pod.metadata.annotations['kruise.io/sidecarset-hash-without-image']);
});

test('inject rewrites the pod template of a Deployment and keeps the Deployment itself', async () => {
  const r = await cli(['inject', '-o', 'json', '-f', ex('01-sidecarset-demo.yaml'), '-f', ex('05-nginx-deployment.yaml')]);
  assert.equal(r.code, 0, r.stderr);
  const list = JSON.parse(r.stdout);
  assert.deepEqual(list.items.map((i: any) => i.kind), ['SidecarSet', 'Deployment'], 'the SidecarSet passes through');
  const d = list.items[1];
  assert.deepEqual(d.spec.template.spec.containers.map((c: any) => c.name), ['sidecar1', 'ngx']);
  assert.equal(d.spec.template.metadata.name, undefined);
});

test('inject reads standard input and passes documents that are neither pods nor workloads through unchanged', async () => {
  const input = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: lone}\nspec: {containers: [{name: a, image: x}]}\n' +
    '---\napiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}]}\n';
  const r = await cli(['inject', '-f', '-'], input);
  assert.equal(r.code, 0);
  assert.equal(r.stderr, '');
  const docs = yaml.loadAll(r.stdout) as any[];
  assert.deepEqual(docs.map((d) => `${d.kind}/${d.metadata.name}`), ['ConfigMap/c', 'Pod/lone', 'Service/s'], 'in input order');
  assert.deepEqual(docs[0], { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } });
  assert.deepEqual(docs[2], { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } });
  assert.deepEqual(docs[1].spec.containers.map((c: any) => c.name), ['a']);
});

test('--help prints the usage on stdout, saying inject passes other documents through, and exits 0', async () => {
  for (const args of [['--help'], ['-h'], ['inject', '--help']]) {
    const r = await cli(args);
    assert.equal(r.code, 0, args.join(' '));
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^usage:\n.*every other document passes through unchanged/s);
  }
});

test('unreadable or malformed input exits 1 with a message', async () => {
  const missing = await cli(['inject', '-f', '/nonexistent/file.yaml']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot read \/nonexistent\/file\.yaml: ENOENT/);
  const bad = await cli(['inject', '-f', '-'], 'kind: [unclosed');
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /not valid YAML or JSON/);
  const usage = await cli(['frobnicate']);
  assert.equal(usage.code, 1);
  assert.match(usage.stderr, /usage:/);
});

test('validate admits the seed examples and refuses a second SidecarSet injecting the same container', async () => {
  const clash = 'apiVersion: apps.kruise.io/v1alpha1\nkind: SidecarSet\nmetadata: {name: scs-clash}\nspec:\n  selector: {matchLabels: {app: nginx}}\n  containers: [{name: sidecar1, image: busybox}]\n';
  const r = await cli(['validate', '-f', ex('01-sidecarset-demo.yaml'), '-f', ex('02-test-pod.yaml'), '-f', '-'], clash);
  assert.equal(r.code, 1);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines[0], 'allowed SidecarSet/scs-demo');
  assert.equal(lines[1], 'allowed Pod/test-pod');
  assert.match(lines[2]!, /^denied SidecarSet\/scs-clash: .*container sidecar1 already exist in scs-demo/);
});

// upstream pod/mutating TestSidecarSetNameInject: sidecarset1 and sidecarset3 share container names (validation would
// refuse the second), yet injection applies both; inject treats input SidecarSets as stored, not as requests.
test('TestSidecarSetNameInject: inject applies every matching SidecarSet, even one validation would refuse', async () => {
  const sidecarSet = (name: string, policy: string) =>
    `apiVersion: apps.kruise.io/v1alpha1\nkind: SidecarSet\nmetadata: {name: ${name}}\nspec:\n  selector: {matchLabels: {app: suxing-test}}\n` +
    `  containers: [{name: dns-f, image: "dns-f-image:1.0", podInjectPolicy: ${policy}}]\n---\n`;
  const pod = 'apiVersion: v1\nkind: Pod\nmetadata: {name: test-pod, labels: {app: suxing-test}}\nspec: {containers: [{name: nginx, image: "nginx:1.15.1"}]}\n';
  const r = await cli(['inject', '-f', '-'], sidecarSet('sidecarset1', 'BeforeAppContainer') + sidecarSet('sidecarset3', 'AfterAppContainer') + pod);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /SidecarSet\/sidecarset3 would be refused by validation, injected anyway: .*container dns-f already exist in sidecarset1/);
  const out = only(r.stdout, 'Pod');
  assert.equal(out.metadata.annotations['kruise.io/sidecarset-injected-list'], 'sidecarset1,sidecarset3');
  assert.deepEqual(Object.keys(JSON.parse(out.metadata.annotations['kruise.io/sidecarset-hash'])), ['sidecarset1', 'sidecarset3']);
});

// upstream pod/mutating TestInjectionStrategyRevision: the revision to inject is a ControllerRevision of the kruise
// namespace; offline, ControllerRevisions (and the kruise-configuration ConfigMap) come from the input.
test('TestInjectionStrategyRevision: ControllerRevisions in the input are the history injection reads', async () => {
  const input = `apiVersion: apps/v1
kind: ControllerRevision
metadata:
  name: sidecarset1-12345
  namespace: kruise-system
  labels: {kruise.io/sidecarset-name: sidecarset1, apps.kruise.io/sidecarset-custom-version: sidecarset1-12345}
revision: 1
data:
  spec:
    $patch: replace
    initContainers: [{name: init-2, image: "busybox:1.0.0"}]
    containers: [{name: dns-f, image: "dns-f-image:1.0", podInjectPolicy: BeforeAppContainer, shareVolumePolicy: {type: disabled}}]
---
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: sidecarset1}
spec:
  selector: {matchLabels: {app: suxing-test}}
  updateStrategy: {type: NotUpdate}
  initContainers: [{name: init-2, image: "busybox:1.0.0"}, {name: init-1, image: "busybox:1.0.0"}]
  containers: [{name: dns-f, image: "dns-f-image:2.0"}, {name: log-agent, image: "log-agent-image:1.0", podInjectPolicy: AfterAppContainer}]
  injectionStrategy: {revision: {customVersion: sidecarset1-12345, policy: Always}}
---
apiVersion: v1
kind: Pod
metadata: {name: test-pod, labels: {app: suxing-test}}
spec:
  initContainers: [{name: init-0, image: "busybox:1.0.0"}]
  containers: [{name: nginx, image: "nginx:1.15.1"}]
`;
  const injected = await cli(['inject', '-f', '-'], input);
  assert.equal(injected.code, 0, injected.stderr);
  assert.equal(injected.stderr, '');
  const pod = only(injected.stdout, 'Pod');
  assert.deepEqual(pod.spec.initContainers.map((c: any) => c.name), ['init-0', 'init-2'], 'one init container from the revision');
  assert.deepEqual(pod.spec.containers.map((c: any) => `${c.name}=${c.image}`), ['dns-f=dns-f-image:1.0', 'nginx=nginx:1.15.1']);
  const validated = await cli(['validate', '-f', '-'], input);
  assert.equal(validated.stdout, 'allowed ControllerRevision/sidecarset1-12345\nallowed SidecarSet/sidecarset1\nallowed Pod/test-pod\n');
});

test('validate reads the patchPodMetadata whitelist from a kruise-configuration ConfigMap in the input', async () => {
  const set = 'apiVersion: apps.kruise.io/v1alpha1\nkind: SidecarSet\nmetadata: {name: s}\nspec:\n  selector: {matchLabels: {app: a}}\n' +
    '  containers: [{name: c, image: busybox}]\n  patchPodMetadata: [{annotations: {oom-score: "1"}}]\n';
  const without = await cli(['validate', '-f', '-'], set);
  assert.match(without.stdout, /^denied SidecarSet\/s: spec.patchPodMetadata: Required value: SidecarSet patch metadata whitelist not found/);
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kruise-configuration, namespace: kruise-system}\n' +
    'data:\n  SidecarSet_PatchPodMetadata_WhiteList: \'{"rules":[{"allowedAnnotationKeyExprs":["^oom-score$"]}]}\'\n---\n';
  const withCm = await cli(['validate', '-f', '-'], cm + set);
  assert.equal(withCm.stdout, 'allowed ConfigMap/kruise-configuration\nallowed SidecarSet/s\n');
});

test('inject defaults every SidecarSet first, so a pod listed before its SidecarSet is injected too', async () => {
  const r = await cli(['inject', '-f', ex('02-test-pod.yaml'), '-f', ex('01-sidecarset-demo.yaml')]);
  assert.equal(r.code, 0, r.stderr);
  const pod = only(r.stdout, 'Pod');
  assert.deepEqual(pod.spec.containers.map((c: any) => c.name), ['sidecar1', 'app']);
  assert.equal(pod.metadata.annotations['kruise.io/sidecarset-injected-list'], 'scs-demo');
});

test('inject with a v1beta1 SidecarSet gives the pod exactly what its v1alpha1 form gives', async () => {
  const file = readFileSync(ex('01-sidecarset-demo.yaml'), 'utf8');
  const beta = file.replace('apps.kruise.io/v1alpha1', 'apps.kruise.io/v1beta1');
  assert.notEqual(beta, file);
  const pod = readFileSync(ex('02-test-pod.yaml'), 'utf8');
  const outs = [];
  for (const set of [file, beta]) {
    const r = await cli(['inject', '-f', '-'], `${set}\n---\n${pod}`);
    assert.equal(r.code, 0, r.stderr);
    outs.push(only(r.stdout, 'Pod'));
  }
  assert.deepEqual(outs[0].spec.containers.map((c: any) => c.name), ['sidecar1', 'app']);
  assert.deepEqual(outs[1], outs[0]);
});

test('validate admits the article\'s CloneSet (defaulted first: it has no updateStrategy) and refuses bad ones with upstream\'s messages', async () => {
  const r = await cli(['validate', '-f', ex('07b-hotupgrade-cloneset.yaml')]);
  assert.equal(r.stdout, 'allowed CloneSet/busybox\n');
  assert.equal(r.code, 0, r.stderr);
  const bad = 'apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n' +
    '  scaleStrategy: {podsToDelete: [web-abcde]}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {restartPolicy: Never, containers: [{name: c, image: nginx}]}\n';
  const denied = await cli(['validate', '-f', '-'], bad);
  assert.equal(denied.code, 1);
  assert.equal(denied.stdout, 'denied CloneSet/web: [spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always", ' +
    'spec.scaleStrategy.podsToDelete: Invalid value: "web-abcde": find pod web-abcde failed: pods "web-abcde" not found]\n');
});
