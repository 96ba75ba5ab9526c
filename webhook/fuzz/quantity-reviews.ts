// The review's N-C1 requests (absurd quantity exponents) as reviews of the routes they stalled, shared by
// webhook/quantity-cost.test.ts and bench/quantity/handlers.ts: a 12-byte quantity in a CloneSet or SidecarSet
// container cost ~15 s of one event loop before quantities stopped materialising 10^exponent.
export interface QuantityReview {
  name: string;
  path: string;
  body: unknown;
}

const cloneSet = (resources: unknown) => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet',
  metadata: { name: 'cs', namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25', resources }] } } },
});

const sidecarSet = (resources: unknown) => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet',
  metadata: { name: 'side' },
  spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'side', image: 'busybox', resources }] },
});

const admission = (kind: string, object: unknown, uid: string) => ({
  apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
  request: {
    uid, kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind }, resource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: `${kind.toLowerCase()}s` },
    namespace: 'default', operation: 'CREATE', userInfo: { username: 'tenant' }, object,
  },
});

const conversion = (objects: unknown[]) => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview',
  request: { uid: 'conv-1', desiredAPIVersion: 'apps.kruise.io/v1beta1', objects },
});

/** The review's table (N-C1 reproduction), then the same routes with a refused and a wrapped exponent. */
export function quantityReviews(): QuantityReview[] {
  return [
    { name: 'CloneSet mutate, limits.cpu 1e-100000000', path: '/mutate-apps-kruise-io-v1alpha1-cloneset', body: admission('CloneSet', cloneSet({ limits: { cpu: '1e-100000000' } }), 'cs-m') },
    { name: 'SidecarSet mutate, limits.cpu 1e-100000000', path: '/mutate-apps-kruise-io-v1alpha1-sidecarset', body: admission('SidecarSet', sidecarSet({ limits: { cpu: '1e-100000000' } }), 'ss-m') },
    { name: 'CloneSet validate, requests.cpu 1e30000000', path: '/validate-apps-kruise-io-v1alpha1-cloneset', body: admission('CloneSet', cloneSet({ requests: { cpu: '1e30000000' } }), 'cs-v') },
    { name: '/convert, a SidecarSet with cpu 1e-30000000', path: '/convert', body: conversion([{ ...sidecarSet({ limits: { cpu: '1e-30000000' } }) }]) },
    { name: 'SidecarSet validate, limits.memory 1e-9999999999', path: '/validate-apps-kruise-io-v1alpha1-sidecarset', body: admission('SidecarSet', sidecarSet({ limits: { memory: '1e-9999999999' } }), 'ss-v') },
    { name: 'CloneSet mutate, requests.cpu 1e99999999999999999999 (past int64: refused)', path: '/mutate-apps-kruise-io-v1alpha1-cloneset', body: admission('CloneSet', cloneSet({ requests: { cpu: '1e99999999999999999999' } }), 'cs-r') },
  ];
}
