// caBundle + clientConfig for the two webhook configurations OpenKruise's webhook-controller manages (spec §6, §9 note 12).
import type { AdmissionregistrationV1Api, AdmissionregistrationV1WebhookClientConfig } from '@kubernetes/client-node';
import { joinPem, splitPem, type CaBundleTarget } from './ca-bundle.js';

export const MUTATING_CONFIGURATION = 'kruise-mutating-webhook-configuration';
export const VALIDATING_CONFIGURATION = 'kruise-validating-webhook-configuration';

export interface ClientConfigTarget {
  caBundle: string;
  /** URL mode (WEBHOOK_HOST set): `https://host:port<path>` replaces the Service reference. */
  host?: string;
  port: number;
  service: { namespace: string; name: string };
}

function pathOf(cc: AdmissionregistrationV1WebhookClientConfig): string {
  if (cc.service?.path) return cc.service.path;
  if (cc.url) {
    try {
      return new URL(cc.url).pathname;
    } catch {
      return '';
    }
  }
  return '';
}

/** The clientConfig a webhook should have; keeps its path, sets caBundle and either service or url. */
export function desiredClientConfig(cc: AdmissionregistrationV1WebhookClientConfig, t: ClientConfigTarget): AdmissionregistrationV1WebhookClientConfig {
  const path = pathOf(cc);
  if (t.host) return { caBundle: t.caBundle, url: `https://${t.host}:${t.port}${path}` };
  return { caBundle: t.caBundle, service: { ...(cc.service ?? {}), namespace: t.service.namespace, name: t.service.name, ...(path ? { path } : {}) } };
}

interface WithWebhooks {
  webhooks?: { clientConfig: AdmissionregistrationV1WebhookClientConfig }[];
}

/** Returns a patched copy and whether anything changed (so unchanged configurations are never written). */
export function withClientConfigs<T extends WithWebhooks>(conf: T, t: ClientConfigTarget): { conf: T; changed: boolean } {
  const next = structuredClone(conf);
  for (const w of next.webhooks ?? []) w.clientConfig = desiredClientConfig(w.clientConfig ?? {}, t);
  return { conf: next, changed: JSON.stringify(next.webhooks) !== JSON.stringify(conf.webhooks) };
}

const notFound = (err: unknown) => (err as { code?: number })?.code === 404;

/** Updates both configurations; a missing one is reported (not installed yet), others errors are thrown. */
export async function patchWebhookConfigurations(api: AdmissionregistrationV1Api, t: ClientConfigTarget): Promise<{ updated: string[]; missing: string[] }> {
  const updated: string[] = [];
  const missing: string[] = [];
  try {
    const m = await api.readMutatingWebhookConfiguration({ name: MUTATING_CONFIGURATION });
    const { conf, changed } = withClientConfigs(m, t);
    if (changed) { await api.replaceMutatingWebhookConfiguration({ name: MUTATING_CONFIGURATION, body: conf }); updated.push(MUTATING_CONFIGURATION); }
  } catch (err) {
    if (!notFound(err)) throw new Error(`update ${MUTATING_CONFIGURATION}`, { cause: err });
    missing.push(MUTATING_CONFIGURATION);
  }
  try {
    const v = await api.readValidatingWebhookConfiguration({ name: VALIDATING_CONFIGURATION });
    const { conf, changed } = withClientConfigs(v, t);
    if (changed) { await api.replaceValidatingWebhookConfiguration({ name: VALIDATING_CONFIGURATION, body: conf }); updated.push(VALIDATING_CONFIGURATION); }
  } catch (err) {
    if (!notFound(err)) throw new Error(`update ${VALIDATING_CONFIGURATION}`, { cause: err });
    missing.push(VALIDATING_CONFIGURATION);
  }
  return { updated, missing };
}

/** The CAs in every webhook's caBundle, one list per webhook; a configuration that does not exist contributes none. */
export async function readCaBundles(api: AdmissionregistrationV1Api): Promise<string[][]> {
  const out: string[][] = [];
  for (const [name, read] of [
    [MUTATING_CONFIGURATION, () => api.readMutatingWebhookConfiguration({ name: MUTATING_CONFIGURATION })],
    [VALIDATING_CONFIGURATION, () => api.readValidatingWebhookConfiguration({ name: VALIDATING_CONFIGURATION })],
  ] as const) {
    try {
      const conf: WithWebhooks = await read();
      for (const w of conf.webhooks ?? []) out.push(splitPem(Buffer.from(w.clientConfig?.caBundle ?? '', 'base64').toString('utf8')));
    } catch (err) {
      if (!notFound(err)) throw new Error(`read ${name}`, { cause: err });
    }
  }
  return out;
}

/** The two kruise webhook configurations as a CaBundleTarget; `onPatched` reports what each write changed. */
export function webhookCaBundles(api: AdmissionregistrationV1Api, t: Omit<ClientConfigTarget, 'caBundle'>, onPatched?: (r: { updated: string[]; missing: string[] }) => void): CaBundleTarget {
  return {
    read: () => readCaBundles(api),
    write: async (cas) => {
      const r = await patchWebhookConfigurations(api, { ...t, caBundle: Buffer.from(joinPem(cas)).toString('base64') });
      onPatched?.(r);
    },
  };
}
