// The CRDs an OpenKruise install leaves behind when its manager is removed, for e2e/takeover.e2e.test.ts: sidecarsets,
// nodeimages and imagepulljobs as v1.8.4 installs them (v1alpha1 only, stored as v1alpha1, no conversion) and as v1.9.0
// installs them (v1alpha1 and v1beta1 served, v1beta1 stored; SidecarSet converted by a webhook on OpenKruise's own
// Service, which is gone). Built by hand from spec/openkruise-v1.9.md §1, §2.1, §5.1 on top of the chart's v1alpha1
// schemas (compared field by field with upstream's when they were written), whatever versions the chart adds later.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';

type Json = Record<string, any>;

export type Plural = 'sidecarsets' | 'nodeimages' | 'imagepulljobs';
export const PLURALS: readonly Plural[] = ['sidecarsets', 'nodeimages', 'imagepulljobs'];
export const crdName = (p: Plural) => `${p}.apps.kruise.io`;

const chartCrd = (p: Plural): Json =>
  load(readFileSync(join(import.meta.dirname, `../../charts/kruise-ts/files/crds/apps.kruise.io_${p}.yaml`), 'utf8')) as Json;

/** The chart's v1alpha1 version entry (a copy). */
function alphaOf(crd: Json): Json {
  const v = (crd.spec.versions as Json[]).find((x) => x.name === 'v1alpha1');
  if (!v) throw new Error(`${crd.metadata.name}: the chart has no v1alpha1 version`);
  return structuredClone(v);
}

const props = (v: Json, ...path: string[]): Json => {
  let s = v.schema.openAPIV3Schema;
  for (const p of path) s = p === '[]' ? s.items : p === '{}' ? s.additionalProperties : s.properties[p];
  return s.properties;
};

/** A bare CRD: the chart's metadata name, names and scope, none of its Helm annotations. */
function crdWith(p: Plural, versions: Json[], conversion?: Json): Json {
  const c = chartCrd(p);
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: c.metadata.name },
    spec: { group: c.spec.group, names: c.spec.names, scope: c.spec.scope, versions, ...(conversion ? { conversion } : {}) },
  };
}

/** v1.8.4's v1alpha1: the chart's without what v1.9 added to it (§2.1 container fields, §5.1 NodeImage `waiting`). */
function v18Alpha(p: Plural): Json {
  const v = alphaOf(chartCrd(p));
  v.served = true;
  v.storage = true;
  if (p === 'sidecarsets') {
    for (const list of ['containers', 'initContainers']) {
      const c = props(v, 'spec', list, '[]');
      delete c.shareVolumeDevicePolicy;
      delete c.resourcesPolicy;
    }
  }
  if (p === 'nodeimages') delete props(v, 'status').waiting;
  return v;
}

/** v1.9.0's v1beta1, derived from its v1alpha1 by the differences §2.1 and §5.1 list. */
function v19Beta(p: Plural): Json {
  const v = alphaOf(chartCrd(p));
  v.name = 'v1beta1';
  v.served = true;
  v.storage = true;
  if (p === 'sidecarsets') {
    const spec = props(v, 'spec');
    delete spec.namespace;
    spec.customVersion = { description: 'CustomVersion is the custom version of the sidecarSet; it replaces the label apps.kruise.io/sidecarset-custom-version.', type: 'string' };
  }
  if (p === 'nodeimages') {
    props(v, 'spec', 'images', '{}', 'pullSecrets', '[]').mode = { description: 'Mode of the referenced Secret: batch for a copy shared per source Secret.', type: 'string' };
  }
  if (p === 'imagepulljobs') v.additionalPrinterColumns = (v.additionalPrinterColumns as Json[]).filter((c) => c.name !== 'MESSAGE');
  return v;
}

function v19Alpha(p: Plural): Json {
  const v = alphaOf(chartCrd(p));
  v.served = true;
  v.storage = false;
  return v;
}

/** What OpenKruise v1.8.4's chart installed. */
export function v18Crd(p: Plural): Json {
  return crdWith(p, [v18Alpha(p)]);
}

/**
 * What OpenKruise v1.9.0's chart installed, as its manager left the SidecarSet CRD after patching it (§2.3): the
 * conversion webhook on Service kruise-system/kruise-webhook-service with OpenKruise's CA. Once that manager is gone
 * (the Service deleted, or serving with another CA) no SidecarSet can be read in the version it is not stored in.
 */
export function v19Crd(p: Plural, foreignCaBundle: string): Json {
  const conversion = p !== 'sidecarsets' ? undefined : {
    strategy: 'Webhook',
    webhook: {
      conversionReviewVersions: ['v1', 'v1beta1'],
      clientConfig: { caBundle: foreignCaBundle, service: { namespace: 'kruise-system', name: 'kruise-webhook-service', port: 443, path: '/convert' } },
    },
  };
  return crdWith(p, [v19Alpha(p), v19Beta(p)], conversion);
}
