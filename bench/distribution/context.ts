// What both halves of bench:distribution share: the cluster's clients, the meter, and small waiting helpers.
import type { KubeConfig } from '@kubernetes/client-node';
import type { InformerFactory } from '../../shared/kube/informer-factory.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import type { Meter } from './meter.js';

export interface BenchContext {
  kubeconfig: string;
  kc: KubeConfig;
  /** The bench's own client: not counted as controller requests. */
  client: KubeRest;
  /** The controllers' shared caches (reading them costs no API request). */
  informers: InformerFactory;
  meter: Meter;
  /** Resolves once the controllers made no API request for `ms`. */
  controllersQuiet(ms?: number): Promise<void>;
}

export const say = (s: string) => process.stdout.write(`${s}\n`);

/** Polls `check` until true; rejects after `timeoutMs` with `what` and the last progress `check` reported. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 25): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    if (await check()) return;
    if (performance.now() - t0 > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
