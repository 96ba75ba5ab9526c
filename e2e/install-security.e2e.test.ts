// What `kubectl apply -k manifests/` grants and admits, asked of the real apiserver: each ServiceAccount's rights
// (the harness runs the webhook and the controllers with these tokens, which proves the grants suffice; this file
// proves the ones taken away stay away), PodSecurity on the rendered pod templates, and the settings the apiserver
// would silently drop if it did not serve them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { loadAll } from 'js-yaml';
import { parseFeatureGates } from '../shared/feature-gates.js';
import { getJson, kubectl, kubectlOk, stack } from './harness/kube.js';

const s = stack();
const skip = typeof s === 'string' ? s : false;
const repo = join(import.meta.dirname, '..');
/** Whether the installed release turns ResourceDistribution on (the harness does by default): its RBAC depends on it. */
const releaseGates = typeof s !== 'string' && s.release
  ? parseFeatureGates(String((JSON.parse(readFileSync(s.release.valuesFile, 'utf8')) as { featureGates?: string }).featureGates ?? '')).gates
  : undefined;
const rdOn = !!releaseGates?.ResourceDistributionGate;
/** ResourcesDeletionProtection (the e2e stack turns it on): the webhook lists pods and PVCs for Cascading namespaces. */
const dpOn = !!releaseGates?.ResourcesDeletionProtection;

interface Doc { kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: any }
const rendered = () => loadAll(kubectlOk(['kustomize', join(repo, 'manifests')])) as Doc[];
const find = (docs: Doc[], kind: string, name: string) => {
  const d = docs.find((x) => x.kind === kind && x.metadata.name === name);
  assert.ok(d, `${kind}/${name} is not in manifests/`);
  return d;
};

/**
 * `kubectl auth can-i` as a ServiceAccount: the apiserver's own RBAC evaluation. `resource` is `plural[.group][/name]`,
 * with `#subresource` at the end for a subresource.
 */
const can = (sa: string, verb: string, resource: string, namespace?: string) => {
  const ns = namespace === '*' ? ['--all-namespaces'] : namespace ? ['-n', namespace] : [];
  const [res = '', sub] = resource.split('#');
  return kubectl(['auth', 'can-i', verb, res, ...(sub ? [`--subresource=${sub}`] : []), ...ns, `--as=system:serviceaccount:${sa}`]).stdout.trim() === 'yes';
};
type Case = [verb: string, resource: string, namespace: string | undefined, allowed: boolean];
const checkRights = (sa: string, cases: Case[]) => {
  const wrong = cases.filter(([verb, resource, ns, allowed]) => can(sa, verb, resource, ns) !== allowed)
    .map(([verb, resource, ns, allowed]) => `${allowed ? 'cannot' : 'can'} ${verb} ${resource}${ns ? ` in ${ns}` : ''}`);
  assert.deepEqual(wrong, [], `${sa}: ${wrong.join('; ')}`);
};

describe('install: identities, pod security and disruption settings', { skip }, () => {
  it('the webhook and the controllers are Deployments of their own, each under its own ServiceAccount', () => {
    const docs = rendered();
    const webhook = find(docs, 'Deployment', 'kruise-webhook');
    const controllers = find(docs, 'Deployment', 'kruise-controller-manager');
    assert.equal(webhook.spec.template.spec.serviceAccountName, 'kruise-webhook');
    assert.equal(controllers.spec.template.spec.serviceAccountName, 'kruise-manager');
    assert.deepEqual(webhook.spec.template.spec.containers.map((c: { name: string }) => c.name), ['webhook']);
    assert.deepEqual(controllers.spec.template.spec.containers.map((c: { name: string }) => c.name), ['controller']);
    // The Service sends admission traffic to the webhook pods only.
    assert.deepEqual(find(docs, 'Service', 'kruise-webhook-service').spec.selector, webhook.spec.template.metadata.labels);
    for (const d of [webhook, controllers]) {
      assert.equal(d.spec.replicas, 2, d.metadata.name);
      assert.equal(d.spec.template.spec.priorityClassName, 'system-cluster-critical', d.metadata.name);
      const pdb = docs.find((x) => x.kind === 'PodDisruptionBudget' && JSON.stringify(x.spec.selector.matchLabels) === JSON.stringify(d.spec.selector.matchLabels));
      assert.equal(pdb?.spec.minAvailable, 1, `${d.metadata.name}: PodDisruptionBudget`);
    }
    getJson(['serviceaccount', '-n', 'kruise-system', 'kruise-webhook']);
    getJson(['serviceaccount', '-n', 'kruise-daemon', 'kruise-daemon']);
  });

  it('kruise-webhook may read what admission reads and write only its certificate, its two configurations, its CRDs\' conversion and dry-runs', () => {
    checkRights('kruise-system:kruise-webhook', [
      ['list', 'sidecarsets.apps.kruise.io', undefined, true],
      ['watch', 'namespaces', undefined, true],
      ['get', 'pods', 'default', true],
      ['get', 'nodes', undefined, true],
      ['watch', 'controllerrevisions.apps', 'kruise-system', true],
      ['watch', 'configmaps/kruise-configuration', 'kruise-system', true],
      ['update', 'secrets/kruise-webhook-certs', 'kruise-system', true],
      ['create', 'secrets', 'kruise-system', true],
      // ConfigMaps: the ResourceDistribution dry-run's only, so only with its gate (review N-L4).
      ['create', 'configmaps', 'kruise-system', rdOn],
      ['update', 'mutatingwebhookconfigurations/kruise-mutating-webhook-configuration', undefined, true],
      // Its two configurations and the conversion CRD are watched, by name only (issue 24 class 7).
      ['watch', 'mutatingwebhookconfigurations/kruise-mutating-webhook-configuration', undefined, true],
      ['list', 'validatingwebhookconfigurations/kruise-validating-webhook-configuration', undefined, true],
      ['watch', 'customresourcedefinitions.apiextensions.k8s.io/sidecarsets.apps.kruise.io', undefined, true],
      ['watch', 'customresourcedefinitions.apiextensions.k8s.io', undefined, false],
      ['watch', 'validatingwebhookconfigurations', undefined, false],
      ['update', 'validatingwebhookconfigurations/kruise-validating-webhook-configuration', undefined, true],
      ['create', 'subjectaccessreviews.authorization.k8s.io', undefined, true],
      // The conversion caBundle of the CRDs that call /convert, by name only.
      ['get', 'customresourcedefinitions.apiextensions.k8s.io/sidecarsets.apps.kruise.io', undefined, true],
      ['patch', 'customresourcedefinitions.apiextensions.k8s.io/sidecarsets.apps.kruise.io', undefined, true],
      ['patch', 'customresourcedefinitions.apiextensions.k8s.io/clonesets.apps.kruise.io', undefined, false],
      ['update', 'customresourcedefinitions.apiextensions.k8s.io/sidecarsets.apps.kruise.io', undefined, false],
      ['list', 'customresourcedefinitions.apiextensions.k8s.io', undefined, false],
      // What the shared ServiceAccount used to give it.
      ['list', 'secrets', 'kruise-system', false],
      ['get', 'secrets/kruise-daemon-pull', 'kruise-daemon-config', false],
      ['create', 'secrets', 'default', false],
      ['list', 'configmaps', 'kruise-system', false],
      ['patch', 'pods', 'default', false],
      ['update', 'pods#status', 'default', false],
      ['patch', 'pods#resize', 'default', false],
      ['list', 'pods', '*', dpOn],
      ['list', 'controllerrevisions.apps', '*', false],
      ['update', 'sidecarsets.apps.kruise.io', undefined, false],
      ['update', 'mutatingwebhookconfigurations/other', undefined, false],
      ['list', 'mutatingwebhookconfigurations', undefined, false],
      ['update', 'leases.coordination.k8s.io', 'kruise-system', false],
    ]);
  });

  it('kruise-manager keeps what the controllers call and lost the grants they never used', () => {
    checkRights('kruise-system:kruise-manager', [
      ['patch', 'pods', 'default', true],
      ['update', 'pods#status', 'default', true],
      ['patch', 'pods#resize', 'default', true],
      ['update', 'pods#resize', 'default', false],
      ['create', 'controllerrevisions.apps', 'kruise-system', true],
      ['update', 'leases.coordination.k8s.io', 'kruise-system', true],
      ['create', 'secrets', 'kruise-daemon-config', true],
      // Secrets (review N-M4): GET anywhere (the pull Secrets a job names), list/watch in kruise-daemon-config only;
      // cluster-wide list, watch and writes only with ResourceDistribution on.
      ['get', 'secrets', 'default', true],
      ['list', 'secrets', 'kruise-daemon-config', true],
      ['watch', 'secrets', 'kruise-daemon-config', true],
      ['list', 'secrets', 'default', rdOn],
      ['watch', 'secrets', '*', rdOn],
      ['create', 'secrets', 'default', rdOn],
      ['create', 'configmaps', 'default', true],
      ['update', 'configmaps', 'default', rdOn],
      ['list', 'resourcedistributions.apps.kruise.io', undefined, rdOn],
      ['patch', 'sidecarsets.apps.kruise.io#status', undefined, true],
      ['update', 'sidecarsets.apps.kruise.io#status', undefined, false],
      ['list', 'customresourcedefinitions.apiextensions.k8s.io', undefined, false],
      // CloneSet revisions and pods live in each CloneSet's namespace; pods are still only patched, never updated.
      ['create', 'controllerrevisions.apps', 'default', true],
      ['create', 'pods', 'default', true],
      ['delete', 'pods', 'default', true],
      ['update', 'clonesets.apps.kruise.io#status', 'default', true],
      ['update', 'clonesets.apps.kruise.io', 'default', false],
      ['list', 'mutatingwebhookconfigurations', undefined, false],
      ['update', 'mutatingwebhookconfigurations/kruise-mutating-webhook-configuration', undefined, false],
      ['delete', 'leases.coordination.k8s.io', 'kruise-system', false],
      ['list', 'leases.coordination.k8s.io', 'kruise-system', false],
      ['update', 'pods', 'default', false],
      ['create', 'subjectaccessreviews.authorization.k8s.io', undefined, false],
    ]);
  });

  it('kruise-webhook may create for real only its certificate Secret (Opaque or kubernetes.io/tls); anything else only as a dry-run (review N-L4)', () => {
    const as = ['-n', 'kruise-system', '--as=system:serviceaccount:kruise-system:kruise-webhook'];
    const create = (obj: object, dryRun = false) => kubectl(['create', ...as, ...(dryRun ? ['--dry-run=server'] : []), '-f', '-'], JSON.stringify(obj));
    const secret = (name: string, type: string, extra: object = {}) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, ...extra }, type, stringData: { k: 'v' } });
    const refusedByPolicy = (r: { code: number; stderr: string }, what: string) => {
      assert.notEqual(r.code, 0, `${what} was created`);
      assert.match(r.stderr, /kruise-webhook-creates|kruise-webhook may create only its certificate Secret/, what);
    };
    refusedByPolicy(create(secret('e2e-planted', 'Opaque')), 'an Opaque Secret of another name');
    // The review's case: kruise-webhook-certs re-created as a token Secret of kruise-manager, to read it back.
    kubectl(['delete', 'secret', '-n', 'kruise-system', 'e2e-planted', '--ignore-not-found']);
    refusedByPolicy(create(secret('kruise-webhook-certs', 'kubernetes.io/service-account-token', { annotations: { 'kubernetes.io/service-account.name': 'kruise-manager' } })),
      'a service-account-token Secret named kruise-webhook-certs');
    // Dry-runs (the ResourceDistribution handler's) pass, whatever the type; nothing is stored.
    for (const type of ['Opaque', 'example.com/any-type']) {
      const dry = create(secret('e2e-dry-run', type), true);
      assert.equal(dry.code, 0, `a ${type} dry-run: ${dry.stderr}`);
    }
    refusedByPolicy(create(secret('kruise-webhook-certs', 'example.com/any-type')), 'the certificate Secret\'s name with another type');
    if (rdOn) {
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration-e2e' }, data: {} };
      refusedByPolicy(create(cm), 'a ConfigMap');
      assert.equal(create(cm, true).code, 0, 'a ConfigMap dry-run');
    }
    // Other identities are not concerned: an admin still creates what it likes.
    const admin = kubectl(['create', '-n', 'kruise-system', '--dry-run=server', '-f', '-'], JSON.stringify(secret('e2e-admin', 'Opaque')));
    assert.equal(admin.code, 0, admin.stderr);
  });

  describe('PodSecurity, with the namespaces labelled as manifests/ labels them', () => {
    // The labels come from the rendered manifests, applied to namespaces of this test's own, so dry-run pods can be
    // judged there without touching the live namespaces.
    const suffix = randomBytes(3).toString('hex');
    const docs = typeof s === 'string' ? [] : rendered();
    const nsFor = (name: string) => `pss-${name}-${suffix}`;
    before(() => {
      for (const name of ['kruise-system', 'kruise-daemon']) {
        const labels = find(docs, 'Namespace', name).metadata.labels ?? {};
        kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: nsFor(name), labels } }));
        // The ServiceAccount admission plugin refuses pods whose ServiceAccount does not exist.
        for (const sa of ['kruise-webhook', 'kruise-manager', 'kruise-daemon']) kubectlOk(['create', 'serviceaccount', sa, '-n', nsFor(name)]);
      }
    });
    after(() => {
      for (const name of ['kruise-system', 'kruise-daemon']) kubectl(['delete', 'namespace', nsFor(name), '--wait=false']);
    });
    /** Server-side dry run of the pod `kind/name`'s template would make in `namespace`. */
    const dryRunPod = (kind: string, name: string, namespace: string) => {
      const t = find(docs, kind, name).spec.template;
      return kubectl(['create', '--dry-run=server', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod',
        metadata: { name: `${name}-dry-run`, namespace, labels: t.metadata.labels }, spec: t.spec }));
    };

    it('kruise-system enforces restricted, and the webhook and controller pods meet it', () => {
      const labels = find(docs, 'Namespace', 'kruise-system').metadata.labels ?? {};
      assert.equal(labels['pod-security.kubernetes.io/enforce'], 'restricted');
      for (const name of ['kruise-webhook', 'kruise-controller-manager']) {
        const r = dryRunPod('Deployment', name, nsFor('kruise-system'));
        assert.equal(r.code, 0, `${name}: ${r.stderr}`);
        assert.doesNotMatch(r.stderr, /would violate PodSecurity/, name);
      }
    });

    it('the daemon\'s pod is refused in kruise-system and admitted in its own privileged namespace', () => {
      const refused = dryRunPod('DaemonSet', 'kruise-daemon', nsFor('kruise-system'));
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /violates PodSecurity "restricted:latest"/);
      const admitted = dryRunPod('DaemonSet', 'kruise-daemon', nsFor('kruise-daemon'));
      assert.equal(admitted.code, 0, admitted.stderr);
      assert.equal(find(docs, 'DaemonSet', 'kruise-daemon').metadata.namespace, 'kruise-daemon');
    });
  });

  it('the daemon mounts only containerd\'s socket directory, read-only, under a read-only root and RuntimeDefault seccomp', () => {
    const spec = find(rendered(), 'DaemonSet', 'kruise-daemon').spec.template.spec;
    assert.deepEqual(spec.volumes.filter((v: { hostPath?: object }) => v.hostPath).map((v: { hostPath: object }) => v.hostPath),
      [{ path: '/run/containerd', type: 'Directory' }]);
    const [c] = spec.containers;
    assert.deepEqual(c.volumeMounts, [{ name: 'runtime-socket', mountPath: '/hostvarrun/containerd', readOnly: true }]);
    assert.equal(c.securityContext.readOnlyRootFilesystem, true);
    assert.deepEqual(spec.securityContext.seccompProfile, { type: 'RuntimeDefault' });
  });

  it('the apiserver keeps the webhook pods\' preStop sleep (Kubernetes ≥ 1.30) and the pod webhook\'s 10 s timeout', () => {
    const d = getJson<{ spec: { template: { spec: { terminationGracePeriodSeconds: number; containers: { lifecycle?: { preStop?: { sleep?: { seconds: number } } } }[] } } } }>(
      ['deployment', '-n', 'kruise-system', 'kruise-webhook']);
    assert.equal(d.spec.template.spec.containers[0]?.lifecycle?.preStop?.sleep?.seconds, 5);
    assert.ok(d.spec.template.spec.terminationGracePeriodSeconds >= 15);
    const conf = getJson<{ webhooks: { name: string; timeoutSeconds: number }[] }>(['mutatingwebhookconfiguration', 'kruise-mutating-webhook-configuration']);
    assert.equal(conf.webhooks.find((w) => w.name === 'mpod.kb.io')?.timeoutSeconds, 10);
  });

  it('NetworkPolicies open the webhook port to all and health and metrics only to labelled namespaces', () => {
    const pols = getJson<{ items: Doc[] }>(['networkpolicy', '-n', 'kruise-system']).items;
    const byName = (n: string) => pols.find((p) => p.metadata.name === n)?.spec;
    const scraper = [{ namespaceSelector: { matchLabels: { 'kruise.io/metrics-scraper': 'true' } } }];
    assert.deepEqual(byName('kruise-webhook')?.ingress, [
      { ports: [{ port: 9876, protocol: 'TCP' }] },
      { ports: [{ port: 8000, protocol: 'TCP' }], from: scraper },
    ]);
    assert.deepEqual(byName('kruise-controller-manager')?.ingress, [{ ports: [{ port: 8000, protocol: 'TCP' }], from: scraper }]);
  });
});
