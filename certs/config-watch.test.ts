// The caBundle objects are watched by name, and any change of theirs asks for a sync (issue 24 class 7).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ChangeVerb } from '../shared/kube/informer.js';
import type { ListOptions } from '../shared/kube/rest.js';
import type { Resource } from '../shared/kube/resources.js';
import { identityOnly, watchCaBundleObjects } from './config-watch.js';

/** An informer factory whose caches only record who listens; `fire` plays an event on one of them. */
function recordingInformers() {
  const caches: { scope: string; handlers: ((o: KubernetesObject, v: ChangeVerb) => void)[] }[] = [];
  return {
    caches,
    cache(r: Resource, o: ListOptions = {}) {
      const c = { scope: `${r.plural}.${r.group}|${o.namespace ?? ''}|${o.labelSelector ?? ''}|${o.fieldSelector ?? ''}`, handlers: [] as ((o: KubernetesObject, v: ChangeVerb) => void)[] };
      caches.push(c);
      return { onChange: (cb: (o: KubernetesObject, v: ChangeVerb) => void) => void c.handlers.push(cb) } as never;
    },
    fire(i: number, verb: ChangeVerb) {
      for (const h of caches[i]!.handlers) h({ metadata: { name: 'x' } }, verb);
    },
  };
}

test('both webhook configurations and each conversion CRD are watched, each by its name only', () => {
  const informers = recordingInformers();
  watchCaBundleObjects(informers, () => {});
  assert.deepEqual(informers.caches.map((c) => c.scope), [
    'mutatingwebhookconfigurations.admissionregistration.k8s.io|||metadata.name=kruise-mutating-webhook-configuration',
    'validatingwebhookconfigurations.admissionregistration.k8s.io|||metadata.name=kruise-validating-webhook-configuration',
    'customresourcedefinitions.apiextensions.k8s.io|||metadata.name=sidecarsets.apps.kruise.io',
  ]);
});

test('a created or changed object asks for a sync; a deleted one does not (nothing left to patch)', () => {
  const informers = recordingInformers();
  let asked = 0;
  watchCaBundleObjects(informers, () => asked++);
  informers.fire(0, 'update');
  informers.fire(1, 'add');
  informers.fire(2, 'update');
  assert.equal(asked, 3);
  informers.fire(0, 'delete');
  assert.equal(asked, 3);
});

test('the caches keep only the identity of an object (a CRD schema is not held in memory)', () => {
  const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: 'sidecarsets.apps.kruise.io', uid: 'u1', resourceVersion: '9', annotations: { a: 'b' } }, spec: { versions: [{ schema: {} }] } };
  assert.deepEqual(identityOnly(crd as KubernetesObject), { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: 'sidecarsets.apps.kruise.io', uid: 'u1', resourceVersion: '9' } });
});
