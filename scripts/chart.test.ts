// charts/kruise-ts rendered with `helm template` under various values: each value reaches the objects it names.
// CI builds helm in e2e/setup.sh (e2e/cluster/build.sh); without it these tests are skipped.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { load, loadAll } from 'js-yaml';
import { CHART_DIR, findHelm, helmTemplate } from './chart.js';
import { CRDS } from '../shared/api/crds.js';
import { parseFeatureGates } from '../shared/feature-gates.js';
import { WATCHED_OBJECTS } from '../certs/config-watch.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const helm = findHelm(repoRoot, process.env);
const noHelm = helm ? false : 'helm is not built (bash e2e/cluster/build.sh builds it into the cache); skipped';
const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

interface Env { name: string; value?: string }
interface Container { name: string; image: string; env: Env[]; volumeMounts: { name: string; mountPath: string }[]; resources: unknown }
interface PodSpec { containers: Container[]; priorityClassName?: string; affinity?: { podAntiAffinity: Record<string, unknown> }; volumes: { name: string; hostPath?: { path: string } }[] }
interface Obj {
  apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { replicas?: number; template?: { spec: PodSpec }; isCA?: boolean; issuerRef?: { name: string }; selfSigned?: object; ca?: { secretName: string }; secretName?: string };
  webhooks?: { name: string; failurePolicy: string; timeoutSeconds: number; namespaceSelector?: { matchLabels?: Record<string, string>; matchExpressions: { key: string }[] }; objectSelector?: unknown }[];
  data?: Record<string, string>;
  rules?: Rule[];
  roleRef?: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
}
interface Rule { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] }

const tmp = mkdtempSync(join(tmpdir(), 'kruise-ts-chart-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
function render(values: object = {}, chart = join(repoRoot, CHART_DIR)): Obj[] {
  const file = join(tmp, `values-${n++}.yaml`);
  writeFileSync(file, JSON.stringify(values));
  return (loadAll(helmTemplate(helm as string, chart, ['-f', file])) as (Obj | null)[]).filter((o): o is Obj => !!o);
}
const find = (objs: Obj[], kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name);
const get = (objs: Obj[], kind: string, name: string) => {
  const o = find(objs, kind, name);
  assert.ok(o, `${kind} ${name} rendered`);
  return o;
};
const container = (objs: Obj[], kind: string, name: string) => get(objs, kind, name).spec?.template?.spec.containers[0] as Container;
const env = (c: Container, name: string) => c.env.find((e) => e.name === name)?.value;
const WORKLOADS = [['Deployment', 'kruise-webhook'], ['Deployment', 'kruise-controller-manager'], ['DaemonSet', 'kruise-daemon']] as const;
const podWebhook = (objs: Obj[]) => get(objs, 'MutatingWebhookConfiguration', 'kruise-mutating-webhook-configuration').webhooks?.find((w) => w.name === 'mpod.kb.io');

describe('charts/kruise-ts', { skip: noHelm }, () => {
  it('Chart.yaml version and appVersion are package.json version, and the image tag defaults to it', () => {
    const chart = load(readFileSync(join(repoRoot, CHART_DIR, 'Chart.yaml'), 'utf8')) as { version: string; appVersion: string };
    assert.equal(chart.version, version);
    assert.equal(chart.appVersion, version);
    const objs = render();
    for (const [kind, name] of WORKLOADS) assert.equal(container(objs, kind, name).image, `kruise-ts/manager:${version}`, name);
    const tagged = render({ image: { repository: 'registry.example/kruise-ts', tag: 'v9', pullPolicy: 'Always' }, imagePullSecrets: [{ name: 'regcred' }] });
    for (const [kind, name] of WORKLOADS) {
      assert.equal(container(tagged, kind, name).image, 'registry.example/kruise-ts:v9', name);
      assert.deepEqual((get(tagged, kind, name).spec?.template?.spec as { imagePullSecrets?: unknown }).imagePullSecrets, [{ name: 'regcred' }], name);
    }
  });

  it('featureGates becomes FEATURE_GATES of the webhook, the controllers and the daemon; none by default', () => {
    const gates = 'ImagePullJobGate=true,ResourceDistributionGate=false';
    const objs = render({ featureGates: gates });
    for (const [kind, name] of WORKLOADS) assert.equal(env(container(objs, kind, name), 'FEATURE_GATES'), gates, name);
    for (const [kind, name] of WORKLOADS) assert.equal(env(container(render(), kind, name), 'FEATURE_GATES'), undefined, name);
  });

  it('log levels: a pino name as is, upstream klog verbosity mapped (4 → debug, 6 → trace, 2 → info)', () => {
    const objs = render({ manager: { log: { level: '4' } }, daemon: { log: { level: 'warn' } } });
    assert.equal(env(container(objs, 'Deployment', 'kruise-webhook'), 'LOG_LEVEL'), 'debug');
    assert.equal(env(container(objs, 'Deployment', 'kruise-controller-manager'), 'LOG_LEVEL'), 'debug');
    assert.equal(env(container(objs, 'DaemonSet', 'kruise-daemon'), 'LOG_LEVEL'), 'warn');
    assert.equal(env(container(render({ manager: { log: { level: 6 } } }), 'Deployment', 'kruise-webhook'), 'LOG_LEVEL'), 'trace');
    assert.equal(env(container(render({ manager: { log: { level: '2' } } }), 'Deployment', 'kruise-webhook'), 'LOG_LEVEL'), 'info');
  });

  it('webhookConfiguration: failurePolicy and the selectors reach the pod webhook only, kruise and kube-system stay excluded', () => {
    const objs = render({ webhookConfiguration: {
      failurePolicy: 'Ignore', timeoutSeconds: 15, podTimeoutSeconds: 5,
      namespaceSelector: { matchLabels: { 'kruise.io/inject': 'on' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] },
      objectSelector: { matchExpressions: [{ key: 'kruise.io/skip', operator: 'DoesNotExist' }] },
    } });
    const pod = podWebhook(objs);
    assert.equal(pod?.failurePolicy, 'Ignore');
    assert.equal(pod?.timeoutSeconds, 5);
    assert.deepEqual(pod?.namespaceSelector?.matchLabels, { 'kruise.io/inject': 'on' });
    assert.deepEqual(pod?.namespaceSelector?.matchExpressions.map((e) => e.key), ['control-plane', 'kubernetes.io/metadata.name', 'tier']);
    assert.deepEqual(pod?.objectSelector, { matchExpressions: [{ key: 'kruise.io/skip', operator: 'DoesNotExist' }] });
    const podHooks = ['mpod.kb.io', 'vpod.kb.io', 'vpodeviction.kb.io'];
    const hooks = objs.filter((o) => o.kind.endsWith('WebhookConfiguration')).flatMap((o) => o.webhooks ?? []);
    for (const w of hooks.filter((x) => podHooks.includes(x.name))) {
      assert.equal(w.failurePolicy, 'Ignore', w.name);
      assert.equal(w.timeoutSeconds, 5, w.name);
      assert.deepEqual(w.objectSelector, { matchExpressions: [{ key: 'kruise.io/skip', operator: 'DoesNotExist' }] }, w.name);
    }
    const others = hooks.filter((w) => !podHooks.includes(w.name));
    assert.equal(others.length, 15);
    for (const w of others) {
      assert.equal(w.failurePolicy, 'Fail', w.name);
      assert.equal(w.timeoutSeconds, 15, w.name);
      assert.equal(w.objectSelector, undefined, w.name);
    }
    const defaults = podWebhook(render());
    assert.equal(defaults?.failurePolicy, 'Fail');
    assert.equal(defaults?.timeoutSeconds, 10);
    assert.equal(defaults?.objectSelector, undefined);
  });

  it('PodUnavailableBudget webhooks follow the gates (DELETE + eviction by default; UPDATE and pods/resize with the UpdateGate; none without PodWebhook)', () => {
    const hooks = (featureGates?: string) => render(featureGates === undefined ? {} : { featureGates })
      .filter((o) => o.kind === 'ValidatingWebhookConfiguration').flatMap((o) => o.webhooks ?? []);
    const rules = (ws: ReturnType<typeof hooks>, name: string) => (ws.find((w) => w.name === name) as { rules?: { operations: string[]; resources: string[] }[] } | undefined)?.rules;
    const byDefault = hooks();
    assert.deepEqual(rules(byDefault, 'vpod.kb.io'), [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['pods'] }]);
    assert.deepEqual(rules(byDefault, 'vpodeviction.kb.io')?.map((r) => [r.operations, r.resources]), [[['CREATE'], ['pods/eviction']]]);
    assert.ok(byDefault.some((w) => w.name === 'vpodunavailablebudget.kb.io'));
    const update = hooks('PodUnavailableBudgetUpdateGate=true');
    assert.deepEqual(rules(update, 'vpod.kb.io')?.map((r) => [r.operations, r.resources]), [[['UPDATE', 'DELETE'], ['pods']], [['UPDATE'], ['pods/resize']]]);
    const updateOnly = hooks('PodUnavailableBudgetDeleteGate=false, WorkloadSpread=false, PodUnavailableBudgetUpdateGate=true');
    assert.deepEqual(rules(updateOnly, 'vpod.kb.io')?.map((r) => r.operations), [['UPDATE'], ['UPDATE']]);
    assert.equal(rules(updateOnly, 'vpodeviction.kb.io'), undefined);
    const off = hooks('PodWebhook=false,PodUnavailableBudgetUpdateGate=true');
    assert.equal(off.some((w) => w.name === 'vpod.kb.io' || w.name === 'vpodeviction.kb.io'), false);
  });

  it('deletion protection: its seven webhook entries and the webhook\'s list rights only with ResourcesDeletionProtection on (every resource only with the CRD gate too)', () => {
    const NAMES = ['vbuiltindeployment.kb.io', 'vbuiltinreplicaset.kb.io', 'vbuiltinstatefulset.kb.io', 'vcustomresourcedefinition.kb.io', 'vnamespace.kb.io', 'vservice.kb.io', 'vingress.kb.io'];
    for (const gates of ['', 'ResourcesDeletionProtection=false', 'ResourcesDeletionProtection=true', 'AllBeta=true', 'AllAlpha=true',
      'ResourcesDeletionProtection=true,DeletionProtectionForCRDCascadingGate=true', 'DeletionProtectionForCRDCascadingGate=true']) {
      const objs = render({ featureGates: gates });
      const parsed = parseFeatureGates(gates).gates;
      const entries = get(objs, 'ValidatingWebhookConfiguration', 'kruise-validating-webhook-configuration').webhooks!.filter((w) => NAMES.includes(w.name));
      assert.deepEqual(entries.map((w) => w.name), parsed.ResourcesDeletionProtection ? NAMES : [], `"${gates}": entries`);
      for (const w of entries) {
        assert.equal(w.failurePolicy, 'Ignore', w.name);
        assert.deepEqual(w.objectSelector, { matchExpressions: [{ key: 'policy.kruise.io/delete-protection', operator: 'Exists' }] }, w.name);
      }
      const rules = get(objs, 'ClusterRole', 'kruise-webhook-role').rules ?? [];
      const lists = (group: string, resource: string) => rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes('list'));
      assert.equal(lists('', 'pods') && lists('', 'persistentvolumeclaims'), parsed.ResourcesDeletionProtection, `"${gates}": pods and PVCs`);
      assert.equal(lists('*', '*'), parsed.DeletionProtectionForCRDCascadingGate, `"${gates}": every resource`);
    }
  });

  it('manager.replicas sets both Deployments, per-Deployment values override it', () => {
    const objs = render({ manager: { replicas: 3, webhook: { replicas: 4 } } });
    assert.equal(get(objs, 'Deployment', 'kruise-webhook').spec?.replicas, 4);
    assert.equal(get(objs, 'Deployment', 'kruise-controller-manager').spec?.replicas, 3);
  });

  it('priorityClassName reaches both Deployments; the system-* quota only for a system-* class; empty: none', () => {
    const custom = render({ priorityClassName: 'kruise-high' });
    for (const name of ['kruise-webhook', 'kruise-controller-manager']) {
      assert.equal(get(custom, 'Deployment', name).spec?.template?.spec.priorityClassName, 'kruise-high');
    }
    assert.equal(find(custom, 'ResourceQuota', 'kruise-critical-pods'), undefined);
    assert.ok(find(render(), 'ResourceQuota', 'kruise-critical-pods'));
    const none = render({ priorityClassName: '' });
    assert.equal(get(none, 'Deployment', 'kruise-webhook').spec?.template?.spec.priorityClassName, undefined);
  });

  it('anti-affinity: preferred by hostname by default, required on request, none with ""', () => {
    const pref = get(render(), 'Deployment', 'kruise-webhook').spec?.template?.spec.affinity?.podAntiAffinity;
    assert.ok(pref?.preferredDuringSchedulingIgnoredDuringExecution);
    const req = get(render({ manager: { antiAffinity: 'required' } }), 'Deployment', 'kruise-controller-manager').spec?.template?.spec.affinity?.podAntiAffinity;
    assert.deepEqual(req?.requiredDuringSchedulingIgnoredDuringExecution,
      [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'control-plane': 'controller-manager' } } }]);
    assert.equal(get(render({ manager: { antiAffinity: '' } }), 'Deployment', 'kruise-webhook').spec?.template?.spec.affinity, undefined);
  });

  it('serviceMonitor.enabled adds ServiceMonitors for the manager and the daemon; off by default', () => {
    assert.equal(render().filter((o) => o.kind === 'ServiceMonitor').length, 0);
    const objs = render({ serviceMonitor: { enabled: true, labels: { release: 'prom' } } });
    const monitors = objs.filter((o) => o.kind === 'ServiceMonitor');
    assert.deepEqual(monitors.map((m) => `${m.metadata.namespace}/${m.metadata.name}`).sort(), ['kruise-daemon/kruise-daemon', 'kruise-system/kruise-manager']);
    for (const m of monitors) assert.deepEqual(m.metadata.labels, { release: 'prom' });
    assert.ok(get(objs, 'Service', 'kruise-webhook-metrics'));
    assert.ok(get(objs, 'Service', 'kruise-controller-manager-metrics'));
    assert.ok(get(objs, 'Service', 'kruise-daemon-metrics'));
  });

  it('grafanaDashboard.enabled makes a ConfigMap labelled grafana_dashboard of dashboards/*.json, none when off', () => {
    const chart = join(tmp, 'chart-with-dashboard');
    cpSync(join(repoRoot, CHART_DIR), chart, { recursive: true });
    rmSync(join(chart, 'dashboards'), { recursive: true, force: true });
    mkdirSync(join(chart, 'dashboards'), { recursive: true });
    writeFileSync(join(chart, 'dashboards', 'test.json'), '{"title": "kruise-ts {{ not a template }}"}');
    const on = get(render({ grafanaDashboard: { enabled: true } }, chart), 'ConfigMap', 'kruise-ts-dashboards');
    assert.equal(on.metadata.labels?.grafana_dashboard, '1');
    assert.deepEqual(on.data, { 'test.json': '{"title": "kruise-ts {{ not a template }}"}' });
    assert.equal(find(render({}, chart), 'ConfigMap', 'kruise-ts-dashboards'), undefined);
    // The chart's own dashboard (scripts/dashboard.test.ts checks its queries) is what ships.
    assert.deepEqual(Object.keys(get(render({ grafanaDashboard: { enabled: true } }), 'ConfigMap', 'kruise-ts-dashboards').data ?? {}), ['kruise-ts.json']);
  });

  it('externalCerts renders the cert-manager CA chain, injects the CA and mounts the serving certificate', () => {
    const objs = render({ externalCerts: { enabled: true } });
    assert.ok(get(objs, 'Issuer', 'kruise-selfsigned-issuer').spec?.selfSigned);
    const ca = get(objs, 'Certificate', 'kruise-webhook-ca');
    assert.equal(ca.spec?.isCA, true);
    assert.equal(ca.spec?.issuerRef?.name, 'kruise-selfsigned-issuer');
    assert.equal(get(objs, 'Issuer', 'kruise-webhook-ca-issuer').spec?.ca?.secretName, 'kruise-webhook-ca');
    const serving = get(objs, 'Certificate', 'kruise-webhook-cert');
    assert.equal(serving.spec?.issuerRef?.name, 'kruise-webhook-ca-issuer');
    assert.equal(serving.spec?.secretName, 'kruise-webhook-certs');
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      const o = objs.find((x) => x.kind === kind);
      assert.equal(o?.metadata.annotations?.['cert-manager.io/inject-ca-from'], 'kruise-system/kruise-webhook-cert', kind);
    }
    const webhook = container(objs, 'Deployment', 'kruise-webhook');
    assert.equal(env(webhook, 'WEBHOOK_CERT_WRITER'), 'external');
    assert.ok(webhook.volumeMounts.some((m) => m.name === 'webhook-certs' && m.mountPath === env(webhook, 'WEBHOOK_CERT_DIR')));
    const defaults = render();
    assert.equal(env(container(defaults, 'Deployment', 'kruise-webhook'), 'WEBHOOK_CERT_WRITER'), 'secret');
    assert.equal(defaults.filter((o) => o.apiVersion.startsWith('cert-manager.io/')).length, 0);
  });

  it('daemon: socketLocation, socketFile, extraEnvs and resources reach the DaemonSet', () => {
    const objs = render({ daemon: {
      socketLocation: '/var/run', socketFile: 'crio/crio.sock', extraEnvs: [{ name: 'HTTPS_PROXY', value: 'http://proxy:8080' }],
      resources: { limits: { memory: '300Mi' } },
    } });
    const ds = get(objs, 'DaemonSet', 'kruise-daemon').spec?.template?.spec as PodSpec;
    assert.deepEqual(ds.volumes.find((v) => v.name === 'runtime-socket')?.hostPath?.path, '/var/run');
    const c = ds.containers[0];
    assert.equal(c.volumeMounts.find((m) => m.name === 'runtime-socket')?.mountPath, '/hostvarrun');
    assert.equal(env(c, 'CRI_SOCKET_FILE'), 'crio/crio.sock');
    assert.equal(c.env.at(-1)?.name, 'HTTPS_PROXY');
    // Helm merges values over the defaults: the other quantities stay.
    assert.deepEqual(c.resources, { limits: { cpu: '500m', memory: '300Mi' }, requests: { cpu: '0', memory: '0' } });
    const crio = container(render({ daemon: { socketLocation: '/run/crio' } }), 'DaemonSet', 'kruise-daemon');
    assert.equal(crio.volumeMounts.find((m) => m.name === 'runtime-socket')?.mountPath, '/hostvarrun/crio');
  });

  it('manager resources, nodeSelector and tolerations apply to both Deployments', () => {
    const objs = render({ manager: { resources: { limits: { cpu: '2' } }, nodeSelector: { pool: 'system' }, tolerations: [{ key: 'system', operator: 'Exists' }] } });
    for (const name of ['kruise-webhook', 'kruise-controller-manager']) {
      const spec = get(objs, 'Deployment', name).spec?.template?.spec as PodSpec & { nodeSelector?: unknown; tolerations?: unknown };
      assert.deepEqual(spec.containers[0].resources, { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '100m', memory: '256Mi' } }, name);
      assert.deepEqual(spec.nodeSelector, { pool: 'system' }, name);
      assert.deepEqual(spec.tolerations, [{ key: 'system', operator: 'Exists' }], name);
    }
  });

  it('values of the wrong shape are refused with the value named (values.schema.json)', () => {
    const refused = (values: object, re: RegExp) => assert.throws(() => render(values), (err: Error & { stderr?: string }) => re.test(String(err.stderr)));
    refused({ webhookConfiguration: { failurePolicy: 'Sometimes' } }, /webhookConfiguration\/failurePolicy/);
    refused({ manager: { antiAffinity: 'always' } }, /manager\/antiAffinity/);
    refused({ manager: { replicas: 'two' } }, /manager\/replicas/);
  });

  it('networkPolicy.webhookSourceCIDRs limits the webhook port to those sources; empty leaves it open', () => {
    type Policy = { spec: { ingress: { ports: { port: number }[]; from?: { ipBlock?: { cidr: string } }[] }[] } };
    const webhookRule = (objs: Obj[]) => (get(objs, 'NetworkPolicy', 'kruise-webhook') as unknown as Policy).spec.ingress.find((r) => r.ports.some((p) => p.port === 9876))!;
    assert.equal(webhookRule(render()).from, undefined);
    const limited = webhookRule(render({ networkPolicy: { enabled: true, webhookSourceCIDRs: ['10.0.0.0/24', 'fd00::/64'] } }));
    assert.deepEqual(limited.from, [{ ipBlock: { cidr: '10.0.0.0/24' } }, { ipBlock: { cidr: 'fd00::/64' } }]);
  });

  it('toggles: crds.managed, installation.createNamespace, networkPolicy.enabled, podDisruptionBudget.enabled', () => {
    const kinds = (objs: Obj[]) => new Set(objs.map((o) => o.kind));
    const all = kinds(render());
    for (const k of ['CustomResourceDefinition', 'Namespace', 'NetworkPolicy', 'PodDisruptionBudget']) assert.ok(all.has(k), k);
    assert.equal(render().filter((o) => o.kind === 'CustomResourceDefinition').length, CRDS.length);
    const off = kinds(render({ crds: { managed: false }, installation: { createNamespace: false }, networkPolicy: { enabled: false }, podDisruptionBudget: { enabled: false } }));
    for (const k of ['CustomResourceDefinition', 'Namespace', 'NetworkPolicy', 'PodDisruptionBudget']) assert.ok(!off.has(k), k);
    assert.ok(off.has('Deployment'));
  });

  it('crds.keep (default true) keeps the CRDs, and every object in them, through helm uninstall; false lets them go', () => {
    const policies = (objs: Obj[]) => objs.filter((o) => o.kind === 'CustomResourceDefinition')
      .map((o) => (o.metadata as { annotations?: Record<string, string> }).annotations?.['helm.sh/resource-policy']);
    const n = readdirSync(join(repoRoot, CHART_DIR, 'files/crds')).length;
    assert.deepEqual(policies(render()), Array(n).fill('keep'));
    assert.deepEqual(policies(render({ crds: { keep: false } })), Array(n).fill(undefined));
  });

  it('the SidecarSet CRD converts through the chart\'s webhook Service at /convert; other CRDs have no conversion', () => {
    type Conversion = { strategy: string; webhook: { conversionReviewVersions: string[]; clientConfig: { service: object; caBundle?: string } } };
    const crds = render().filter((o) => o.kind === 'CustomResourceDefinition') as unknown as { metadata: { name: string }; spec: { conversion?: Conversion } }[];
    const service = (render().find((o) => o.kind === 'Service' && o.metadata.name === 'kruise-webhook-service'))!;
    const sidecarSets = crds.find((o) => o.metadata.name === 'sidecarsets.apps.kruise.io')!;
    assert.deepEqual(sidecarSets.spec.conversion, {
      strategy: 'Webhook',
      webhook: { conversionReviewVersions: ['v1', 'v1beta1'], clientConfig: { service: { name: service.metadata.name, namespace: service.metadata.namespace, path: '/convert', port: 443 } } },
    });
    for (const o of crds.filter((c) => c !== sidecarSets)) assert.equal(o.spec.conversion, undefined, o.metadata.name);
  });

  it('with externalCerts, a CRD whose conversion is a Webhook gets inject-ca-from; CRDs with conversion None do not', () => {
    const crds = (objs: Obj[]) => objs.filter((o) => o.kind === 'CustomResourceDefinition');
    const on = crds(render({ externalCerts: { enabled: true } }));
    const sidecarSets = on.find((o) => o.metadata.name === 'sidecarsets.apps.kruise.io');
    assert.deepEqual(sidecarSets?.metadata.annotations, { 'cert-manager.io/inject-ca-from': 'kruise-system/kruise-webhook-cert', 'helm.sh/resource-policy': 'keep' });
    for (const o of on.filter((c) => c !== sidecarSets)) assert.equal(o.metadata.annotations?.['cert-manager.io/inject-ca-from'], undefined, o.metadata.name);
    for (const o of crds(render({}))) assert.equal(o.metadata.annotations?.['cert-manager.io/inject-ca-from'], undefined, `${o.metadata.name} without externalCerts`);
    const notKept = crds(render({ externalCerts: { enabled: true }, crds: { keep: false } })).find((o) => o.metadata.name === 'sidecarsets.apps.kruise.io');
    assert.deepEqual(notKept?.metadata.annotations, { 'cert-manager.io/inject-ca-from': 'kruise-system/kruise-webhook-cert' });
  });
  describe('RBAC (review N-M4, M3, H2, N-L4)', () => {
    const RD_ROLE = 'kruise-manager-resourcedistribution-role';
    /** The verbs on `resource` (core group) the rules of `role` grant. */
    const verbsOn = (role: Obj | undefined, resource: string) => (role?.rules ?? [])
      .filter((r) => r.apiGroups.includes('') && r.resources.includes(resource)).flatMap((r) => r.verbs).sort();
    /** Every rule bound to the ServiceAccount cluster-wide (ClusterRoleBindings). */
    const clusterRules = (objs: Obj[], sa: string) => objs
      .filter((o) => o.kind === 'ClusterRoleBinding' && o.subjects?.some((x) => x.name === sa && x.namespace === 'kruise-system'))
      .flatMap((b) => find(objs, 'ClusterRole', b.roleRef!.name)?.rules ?? []);

    it('the ResourceDistribution ClusterRole and its binding only with ResourceDistributionGate on, read as FEATURE_GATES is read', () => {
      for (const gates of ['', 'ImagePullJobGate=true', 'ResourceDistributionGate=true', ' ResourceDistributionGate = True ,ImagePullJobGate=true',
        'ResourceDistributionGate=false', 'AllAlpha=true', 'AllAlpha=true,ResourceDistributionGate=false', 'ResourceDistributionGate=true,ResourceDistributionGate=false']) {
        const objs = render({ featureGates: gates });
        const on = parseFeatureGates(gates).gates.ResourceDistributionGate;
        assert.equal(!!find(objs, 'ClusterRole', RD_ROLE), on, `"${gates}": role`);
        assert.equal(!!find(objs, 'ClusterRoleBinding', `${RD_ROLE.replace(/-role$/, '')}-rolebinding`), on, `"${gates}": binding`);
        // The webhook's ConfigMap create is the RD dry-run's only.
        assert.deepEqual(verbsOn(get(objs, 'Role', 'kruise-webhook-role'), 'configmaps'), on ? ['create', 'list', 'watch'] : ['list', 'watch'], `"${gates}": webhook configmaps`);
      }
      const rd = get(render({ featureGates: 'ResourceDistributionGate=true' }), 'ClusterRole', RD_ROLE);
      assert.deepEqual(verbsOn(rd, 'secrets'), ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    });

    it('the SidecarTerminator ClusterRole (CRR create) and its binding only with the gate on and KruiseDaemon not off, as FEATURE_GATES is read', () => {
      const ST_ROLE = 'kruise-manager-sidecarterminator-role';
      for (const gates of ['', 'ImagePullJobGate=true', 'SidecarTerminator=true', ' SidecarTerminator = TRUE ', 'SidecarTerminator=false', 'AllAlpha=true',
        'AllAlpha=true,SidecarTerminator=false', 'SidecarTerminator=true,KruiseDaemon=false', 'SidecarTerminator=true,AllBeta=false',
        'SidecarTerminator=true,AllBeta=false,KruiseDaemon=true', 'SidecarTerminator=false,SidecarTerminator=true']) {
        const objs = render({ featureGates: gates });
        const on = parseFeatureGates(gates).gates.SidecarTerminator;
        assert.equal(!!find(objs, 'ClusterRole', ST_ROLE), on, `"${gates}": role`);
        assert.equal(!!find(objs, 'ClusterRoleBinding', 'kruise-manager-sidecarterminator-rolebinding'), on, `"${gates}": binding`);
      }
      const crrVerbs = (objs: Obj[]) => [...new Set(clusterRules(objs, 'kruise-manager')
        .filter((r) => r.apiGroups.includes('apps.kruise.io') && r.resources.includes('containerrecreaterequests')).flatMap((r) => r.verbs))];
      assert.ok(!crrVerbs(render()).includes('create'), 'no CRR create without the gate');
      assert.ok(crrVerbs(render({ featureGates: 'SidecarTerminator=true' })).includes('create'));
    });

    it('kruise-manager: Secrets by GET only cluster-wide, list/watch only in kruise-daemon-config; no Secret or ConfigMap writes anywhere else', () => {
      const objs = render();
      const rules = clusterRules(objs, 'kruise-manager');
      const granted = (resource: string) => [...new Set(rules.filter((r) => r.apiGroups.includes('') && r.resources.includes(resource)).flatMap((r) => r.verbs))].sort();
      assert.deepEqual(granted('secrets'), ['get']);
      assert.deepEqual(granted('configmaps'), ['create', 'get', 'patch'], 'launch priority\'s barrier only');
      assert.ok(!rules.some((r) => r.apiGroups.includes('apps.kruise.io') && r.resources.some((x) => x.startsWith('resourcedistributions'))), 'no RD rights without the gate');
      assert.deepEqual(verbsOn(get(objs, 'Role', 'kruise-manager-secret-copies-role'), 'secrets'), ['create', 'delete', 'list', 'update', 'watch']);
      assert.equal(get(objs, 'Role', 'kruise-manager-secret-copies-role').metadata.namespace, 'kruise-daemon-config');
    });

    it('kruise-webhook lists and watches exactly the objects certs/config-watch.ts watches, by name', () => {
      const role = get(render(), 'ClusterRole', 'kruise-webhook-role');
      const nameOf = (w: (typeof WATCHED_OBJECTS)[number]) => w.options.fieldSelector!.replace('metadata.name=', '');
      const watchRules = role.rules!.filter((r) => r.verbs.includes('watch') && r.resources.some((p) => WATCHED_OBJECTS.some((w) => w.resource.plural === p)));
      for (const r of watchRules) {
        const want = WATCHED_OBJECTS.filter((w) => r.resources.includes(w.resource.plural)).map(nameOf).sort();
        assert.deepEqual([...(r.resourceNames ?? ['(any name)'])].sort(), want, r.resources.join(','));
        assert.ok(r.verbs.includes('list'), r.resources.join(','));
      }
      for (const w of WATCHED_OBJECTS) {
        assert.ok(watchRules.some((r) => r.apiGroups.includes(w.resource.group) && r.resources.includes(w.resource.plural) && r.resourceNames?.includes(nameOf(w))), nameOf(w));
      }
    });

    it('the webhook\'s create policy (ValidatingAdmissionPolicy v1 + binding) by default; webhookCreatePolicy.enabled=false: none', () => {
      const objs = render();
      const policy = get(objs, 'ValidatingAdmissionPolicy', 'kruise-webhook-creates');
      assert.equal(policy.apiVersion, 'admissionregistration.k8s.io/v1');
      assert.equal((get(objs, 'ValidatingAdmissionPolicyBinding', 'kruise-webhook-creates').spec as { policyName?: string }).policyName, 'kruise-webhook-creates');
      const off = render({ webhookCreatePolicy: { enabled: false } });
      assert.equal(off.filter((o) => o.kind.startsWith('ValidatingAdmissionPolicy')).length, 0);
    });
  });
});
