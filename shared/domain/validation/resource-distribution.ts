// ResourceDistribution validating webhook (spec/webhooks.md §5.4, spec/daemon-and-controllers.md §5.2). All problems
// are collected and answered 422 as a field.ErrorList aggregate. Gate ResourceDistributionGate is assumed on.
//
// The upstream server-side dry-run create of spec.resource (in the kruise namespace) needs the API server, so the
// caller runs it first and passes the outcome in `dryRunError` (undefined = succeeded or AlreadyExists). Callers that
// cannot dry-run simply omit it and that one check is skipped.
//
// Beyond upstream (review H5, M1): kube-* and kruise namespaces are refused as explicit targets; a service-account
// token, finalizers and ownerReferences are refused in spec.resource; and no message or echoed value carries the
// resource's contents (a Secret's data would reach the denial text and the webhook log).
import type { ResourceDistribution, ResourceDistributionTargetNamespaces } from '../../api/resource-distribution.js';
import type { Violation } from '../../errors.js';
import { protectedNamespaceReason } from '../protected-namespaces.js';
import { isDNS1123Label, isDNS1123Subdomain } from './names.js';
import { validateClusterObjectMeta } from './object-meta.js';
import { labelSelectorConversionError } from './selector-validation.js';

export interface ResourceDistributionValidationOptions {
  /** Error text of the dry-run create of spec.resource; undefined when it succeeded, hit AlreadyExists, or was not run. */
  dryRunError?: string;
  /** Labels of an existing namespace (from the webhook's cache); undefined when unknown or missing. */
  namespaceLabels?: (name: string) => Record<string, string> | undefined;
}

const supportedKinds = ['Secret', 'ConfigMap'];

interface DecodedResource {
  apiVersion: string;
  kind: string;
  name: string;
}

export function validateResourceDistribution(
  obj: ResourceDistribution,
  old: ResourceDistribution | undefined,
  opts: ResourceDistributionValidationOptions = {},
): Violation[] {
  const out = validateClusterObjectMeta(obj.metadata, isDNS1123Subdomain);
  const decoded = decodeResource(obj.spec?.resource, out);
  if (!decoded) return out;
  const oldDecoded = old ? decodeResource(old.spec?.resource, out) : undefined;
  out.push(...validateResource(decoded, oldDecoded, opts.dryRunError));
  out.push(...validateContent(obj.spec?.resource as Record<string, unknown>));
  out.push(...validateTargets(obj, opts.namespaceLabels ?? (() => undefined)));
  return out;
}

/** UnstructuredJSONScheme.Decode: the embedded object needs a kind and an apiVersion. */
function decodeResource(resource: unknown, out: Violation[]): DecodedResource | undefined {
  const field = 'spec';
  if (resource === undefined || resource === null) {
    out.push({ field, type: 'Invalid value', value: null, detail: 'empty resource is not allowed' });
    return undefined;
  }
  const fail = (err: string): undefined => {
    out.push({ field, type: 'Internal error', detail: `failed to deserialize resource, please check your spec.resource, err ${err}` });
    return undefined;
  };
  if (typeof resource !== 'object' || Array.isArray(resource)) return fail('json: cannot unmarshal non-object into Go value of type map[string]interface {}');
  const r = resource as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } };
  // Upstream's message quotes the whole object; for a Secret that is its data (review M1): name the field only.
  if (typeof r.kind !== 'string' || r.kind === '') return fail(`Object 'Kind' is missing in spec.resource`);
  if (typeof r.apiVersion !== 'string' || r.apiVersion === '') return fail(`Object 'apiVersion' is missing in spec.resource`);
  return { apiVersion: r.apiVersion, kind: r.kind, name: typeof r.metadata?.name === 'string' ? r.metadata.name : '' };
}

function validateResource(r: DecodedResource, old: DecodedResource | undefined, dryRunError: string | undefined): Violation[] {
  const field = 'spec.resource';
  const group = r.apiVersion.includes('/') ? r.apiVersion.slice(0, r.apiVersion.indexOf('/')) : '';
  if (group !== '' || !supportedKinds.includes(r.kind)) {
    return [{ field, type: 'Invalid value', value: r, detail: `unknown or unsupported resource GroupKind, only support [${supportedKinds.join(' ')}]` }];
  }
  if (old && (old.apiVersion !== r.apiVersion || old.kind !== r.kind || old.name !== r.name)) {
    return [{ field, type: 'Invalid value', value: null, detail: 'resource apiVersion, kind, and name are immutable' }];
  }
  if (dryRunError !== undefined) {
    return [{ field, type: 'Internal error', detail: `failed to dry-run to validate spec.resource, error: ${dryRunError}` }];
  }
  return [];
}

/**
 * What a copy must never carry (review H5): a service-account token (the token controller would mint credentials for
 * any service account named in its annotations), finalizers (one RD could block the deletion of every namespace) and
 * ownerReferences (copies would be collected with, or held by, objects their author does not own).
 */
function validateContent(resource: Record<string, unknown>): Violation[] {
  const out: Violation[] = [];
  const md = (typeof resource.metadata === 'object' && resource.metadata !== null ? resource.metadata : {}) as Record<string, unknown>;
  if (resource.kind === 'Secret' && resource.type === 'kubernetes.io/service-account-token') {
    out.push({ field: 'spec.resource.type', type: 'Forbidden', detail: 'a Secret of type kubernetes.io/service-account-token cannot be distributed' });
  }
  for (const f of ['finalizers', 'ownerReferences'] as const) {
    const v = md[f];
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)) {
      out.push({ field: `spec.resource.metadata.${f}`, type: 'Forbidden', detail: `${f} cannot be distributed` });
    }
  }
  return out;
}

const MAX_NAME_PROBLEMS = 10;

function validateTargets(obj: ResourceDistribution, namespaceLabels: (name: string) => Record<string, string> | undefined): Violation[] {
  const targets = obj.spec?.targets ?? {};
  const out: Violation[] = [];
  const included = new Set<string>();
  // Each problem carries the whole list as its value, as upstream's does; past a few, one summary stands for the rest,
  // or a list of n bad names would answer with n copies of itself (n² bytes).
  const check = (list: ResourceDistributionTargetNamespaces | undefined, key: string, onName: (n: string) => void): void => {
    let problems = 0;
    for (const ns of list?.list ?? []) {
      onName(ns.name);
      for (const detail of isDNS1123Label(ns.name ?? '')) {
        if (++problems <= MAX_NAME_PROBLEMS) out.push({ field: `spec.targets.${key}`, type: 'Invalid value', value: list, detail });
      }
    }
    if (problems > MAX_NAME_PROBLEMS) {
      out.push({ field: `spec.targets.${key}`, type: 'Invalid value', value: null, detail: `${problems - MAX_NAME_PROBLEMS} more problems with namespace names in this list` });
    }
  };
  check(targets.includedNamespaces, 'includedNamespaces', (n) => {
    included.add(n);
    const reason = typeof n === 'string' ? protectedNamespaceReason(n, namespaceLabels(n)) : null;
    if (reason) out.push({ field: 'spec.targets.includedNamespaces', type: 'Forbidden', detail: `namespace "${n}" is never a distribution target: ${reason}` });
  });
  const conflicted: string[] = [];
  check(targets.excludedNamespaces, 'excludedNamespaces', (n) => {
    if (included.has(n)) conflicted.push(n);
  });
  if (conflicted.length > 0) {
    out.push({
      field: 'spec.targets',
      type: 'Invalid value',
      value: targets,
      detail: `ambiguous targets because namespace [${conflicted.join(' ')}] is in both IncludedNamespaces.List and ExcludedNamespaces.List`,
    });
  }
  const selErr = targets.namespaceLabelSelector ? labelSelectorConversionError(targets.namespaceLabelSelector) : undefined;
  if (selErr) {
    out.push({ field: 'spec.targets.namespaceLabelSelector', type: 'Invalid value', value: targets.namespaceLabelSelector, detail: `labelSelectorAsSelector error: ${selErr}` });
  }
  return out;
}
