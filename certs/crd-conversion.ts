// caBundle + clientConfig of the conversion webhook of kruise's CRDs (spec/openkruise-v1.9.md §9.3): a CRD whose
// spec.conversion.strategy is Webhook is called by the apiserver at /convert, so it must trust the serving CA exactly
// as the webhook configurations do. Only the CRDs named below are touched (the webhook's RBAC names them too), and
// only while they exist and say Webhook; a CRD with conversion None is left alone.
import { isRegistered } from '../shared/domain/conversion/scheme.js';
import { joinPem, splitPem, type CaBundleTarget } from './ca-bundle.js';
import type { ClientConfigTarget } from './webhook-config.js';

/** The CRDs whose conversion clientConfig the webhook keeps current (upstream: every Kruise CRD using Webhook). */
export const CONVERSION_CRDS = ['sidecarsets.apps.kruise.io'] as const;

export const CONVERSION_PATH = '/convert';
/** What upstream writes with the clientConfig: the ConversionReview versions /convert answers. */
export const CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;

export interface ConversionClientConfig {
  caBundle?: string;
  url?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
}

export interface Crd {
  metadata?: { name?: string; resourceVersion?: string };
  spec?: {
    group?: string;
    names?: { kind?: string };
    versions?: { name?: string }[];
    conversion?: { strategy?: string; webhook?: { clientConfig?: ConversionClientConfig; conversionReviewVersions?: string[] } };
  };
}

/** The narrow API the patcher needs: a GET (undefined when absent) and a JSON merge patch. */
export interface CrdApi {
  get(name: string): Promise<Crd | undefined>;
  mergePatch(name: string, body: unknown): Promise<void>;
}

/** The clientConfig /convert needs: the Service on port 443, or https://HOST:PORT/convert with WEBHOOK_HOST. */
export function desiredConversionClientConfig(t: ClientConfigTarget): ConversionClientConfig {
  if (t.host) return { caBundle: t.caBundle, url: `https://${t.host}:${t.port}${CONVERSION_PATH}` };
  return { caBundle: t.caBundle, service: { namespace: t.service.namespace, name: t.service.name, path: CONVERSION_PATH, port: 443 } };
}

/** Whether the CRD converts through a webhook and is one of kruise's (its group, first version and kind are ours). */
export function usesOurConversionWebhook(crd: Crd): boolean {
  const s = crd.spec;
  if (s?.conversion?.strategy !== 'Webhook') return false;
  return isRegistered(`${s.group ?? ''}/${s.versions?.[0]?.name ?? ''}`, s.names?.kind ?? '');
}

const sameConfig = (a: ConversionClientConfig | undefined, b: ConversionClientConfig): boolean =>
  a !== undefined && a.caBundle === b.caBundle && a.url === b.url &&
  JSON.stringify([a.service?.namespace, a.service?.name, a.service?.path, a.service?.port ?? 443]) ===
  JSON.stringify([b.service?.namespace, b.service?.name, b.service?.path, b.service?.port ?? 443]);

/**
 * The merge patch that makes the CRD's conversion webhook call us with this CA, or undefined when it already does
 * (or the CRD is not one to touch). As upstream, the whole `conversion.webhook` is set: the clientConfig (the other of
 * url/service nulled) and conversionReviewVersions. The resourceVersion makes a concurrent change fail, not vanish.
 */
export function conversionPatch(crd: Crd, t: ClientConfigTarget): object | undefined {
  if (!usesOurConversionWebhook(crd)) return undefined;
  const want = desiredConversionClientConfig(t);
  if (sameConfig(crd.spec?.conversion?.webhook?.clientConfig, want)) return undefined;
  const clientConfig = want.url ? { ...want, service: null } : { ...want, url: null };
  return {
    metadata: { resourceVersion: crd.metadata?.resourceVersion },
    spec: { conversion: { webhook: { clientConfig, conversionReviewVersions: [...CONVERSION_REVIEW_VERSIONS] } } },
  };
}

/** Patches every named CRD that needs it; absent ones (not installed, or not ours to serve) are skipped. */
export async function patchConversionCrds(api: CrdApi, t: ClientConfigTarget): Promise<{ updated: string[] }> {
  const updated: string[] = [];
  for (const name of CONVERSION_CRDS) {
    const crd = await api.get(name);
    const patch = crd && conversionPatch(crd, t);
    if (!patch) continue;
    try {
      await api.mergePatch(name, patch);
    } catch (err) {
      throw new Error(`failed to update CRD ${name}`, { cause: err });
    }
    updated.push(name);
  }
  return { updated };
}

/**
 * `api` with a CRD the webhook may not read taken as absent (`onForbidden` hears its name): an install whose RBAC does
 * not name the CRD (a chart from before the conversion webhook) leaves its conversion alone, instead of failing every
 * certificate sync and with it the admission webhooks' certificate, which the whole cluster's pod creation waits on.
 */
export function forbiddenAsAbsent(api: CrdApi, onForbidden: (name: string) => void): CrdApi {
  return {
    ...api,
    get: async (name) => {
      try {
        return await api.get(name);
      } catch (err) {
        if ((err as { code?: unknown }).code !== 403) throw err;
        onForbidden(name);
        return undefined;
      }
    },
  };
}

/** The CAs each named CRD's conversion webhook trusts, one list per CRD that converts through us. */
export async function readConversionCaBundles(api: CrdApi): Promise<string[][]> {
  const out: string[][] = [];
  for (const name of CONVERSION_CRDS) {
    const crd = await api.get(name);
    if (!crd || !usesOurConversionWebhook(crd)) continue;
    out.push(splitPem(Buffer.from(crd.spec?.conversion?.webhook?.clientConfig?.caBundle ?? '', 'base64').toString('utf8')));
  }
  return out;
}

/** The conversion CRDs as a CaBundleTarget (read by rotation with the webhook configurations, written with them). */
export function crdCaBundles(api: CrdApi, t: Omit<ClientConfigTarget, 'caBundle'>, onPatched?: (r: { updated: string[] }) => void): CaBundleTarget {
  return {
    read: () => readConversionCaBundles(api),
    write: async (cas) => {
      const r = await patchConversionCrds(api, { ...t, caBundle: Buffer.from(joinPem(cas)).toString('base64') });
      onPatched?.(r);
    },
  };
}

/** Several targets as one: every webhook's list, and every write to each. */
export function allCaBundles(targets: readonly CaBundleTarget[]): CaBundleTarget {
  return {
    read: async () => (await Promise.all(targets.map((t) => t.read()))).flat(),
    write: async (cas) => {
      for (const t of targets) await t.write(cas);
    },
  };
}
