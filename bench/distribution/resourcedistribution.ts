// The ResourceDistribution half of bench:distribution: one RD over 1,000 namespaces. Times until every copy exists
// and until a source edit reached every copy, each against an in-run baseline of the bench itself doing the same
// 1,000 writes (same object, same annotations and ownerReference, the controller's write concurrency).
import type { KubernetesObject } from '@kubernetes/client-node';
import { WRITE_CONCURRENCY } from '../../controller/resourcedistribution/controller.js';
import type { ResourceDistribution } from '../../shared/api/resource-distribution.js';
import { resources, withTypeMeta } from '../../shared/kube/resources.js';
import { isConflict } from '../../shared/kube/rest.js';
import { forEachLimit } from '../../shared/concurrency.js';
import { say, until, type BenchContext } from './context.js';

const NAMESPACES = Number(process.env.BENCH_NAMESPACES ?? 1000);
const CLIENT_CONCURRENCY = 32;
const PHASE_TIMEOUT_MS = 300_000;
const LABEL = 'kruise-ts-bench';
const RD_NAME = 'bench-distribution';

const serviceAccounts = { group: '', version: 'v1', plural: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true };

type ConfigMap = KubernetesObject & { data?: Record<string, string> };

export interface RdFigures { create: number; edit: number; baselineCreate: number; baselineUpdate: number }

const resource = (version: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench-copy', labels: { [`${LABEL}-copy`]: '1' } },
  data: { version, payload: 'x'.repeat(1024) } });
const rd = (name: string, version: string, targets: object) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name },
  spec: { resource: resource(version), targets } }) as KubernetesObject;

export async function resourceDistributionBench(ctx: BenchContext): Promise<RdFigures> {
  const { client, meter } = ctx;
  const names = Array.from({ length: NAMESPACES }, (_, i) => `rd-bench-${String(i).padStart(4, '0')}`);
  await meter.phase(`create ${NAMESPACES} namespaces (bench, ${CLIENT_CONCURRENCY} in flight)`, () => forEachLimit(names, CLIENT_CONCURRENCY, async (name) => {
    try { await client.create(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { [LABEL]: 'rd' } } }); }
    catch (err) { if (!isConflict(err)) throw err; }
  }));

  // Through the controllers' ConfigMap cache: every copy's data.version, by namespace.
  const configMaps = ctx.informers.cache<ConfigMap>(resources.configMaps);
  // The KCM gives every new namespace a ServiceAccount and a kube-root-ca.crt ConfigMap, 20 requests/s at most (its
  // client's limit): 100 s of background writes. RDs normally meet namespaces that exist already, so wait for it.
  await meter.phase('KCM fills the new namespaces (default ServiceAccount, kube-root-ca.crt)', () => until('KCM namespace set-up', async () => {
    if (names.some((n) => !configMaps.get(`${n}/kube-root-ca.crt`))) return false;
    const sas = await client.list(serviceAccounts, { labelSelector: '', fieldSelector: 'metadata.name=default' });
    const have = new Set(sas.items.map((sa) => sa.metadata?.namespace));
    return names.every((n) => have.has(n));
  }, PHASE_TIMEOUT_MS, 2000));
  const atVersion = (version: string) => names.filter((n) => configMaps.get(`${n}/bench-copy`)?.data?.version === version).length;
  await ctx.controllersQuiet();

  // The baseline writes what the controller writes: the same ConfigMap with the three annotations and an
  // ownerReference (not a controller one, so the controller leaves these alone) to an RD that targets nothing.
  const owner = await client.create(resources.resourceDistributions, rd('bench-baseline', '1', {}));
  const baselineCopy = (namespace: string, version: string): ConfigMap => {
    const r = resource(version);
    return { ...r, metadata: { name: 'bench-baseline', namespace, labels: { other: '1' },
      annotations: { 'kruise.io/resourcedistribution.resource.hashcode': 'f'.repeat(64), 'kruise.io/resourcedistribution.resource.from': 'bench-baseline',
        'kruise.io/resourcedistribution.resource.distributed.timestamp': new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
      ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'bench-baseline', uid: owner.metadata!.uid! }] } };
  };
  const baselineCreate = await meter.phase(`RD baseline: bench creates ${NAMESPACES} ConfigMaps (${WRITE_CONCURRENCY} in flight)`,
    () => forEachLimit(names, WRITE_CONCURRENCY, (ns) => client.create(resources.configMaps, baselineCopy(ns, '1'))));
  await ctx.controllersQuiet();

  say('distributing');
  const create = await meter.phase(`RD created → all ${NAMESPACES} copies exist`, async () => {
    await client.create(resources.resourceDistributions, rd(RD_NAME, '1', { namespaceLabelSelector: { matchLabels: { [LABEL]: 'rd' } } }));
    await until('copies at version 1', () => atVersion('1') >= NAMESPACES, PHASE_TIMEOUT_MS);
  });
  await meter.phase('RD create: controller settles (no request for 3 s)', () => ctx.controllersQuiet());

  // As the controller updates a copy: an unconditional PUT of the whole object with the new data.
  const baselineUpdate = await meter.phase(`RD baseline: bench updates ${NAMESPACES} ConfigMaps (${WRITE_CONCURRENCY} in flight)`,
    () => forEachLimit(names, WRITE_CONCURRENCY, (ns) => client.replace(resources.configMaps, withTypeMeta(resources.configMaps, baselineCopy(ns, '2')))));
  await ctx.controllersQuiet();

  say('editing the source');
  const edit = await meter.phase(`RD source edited → all ${NAMESPACES} copies updated`, async () => {
    await client.patch(resources.resourceDistributions, { name: RD_NAME }, 'merge', { spec: { resource: { data: { version: '2' } } } });
    await until('copies at version 2', () => atVersion('2') >= NAMESPACES, PHASE_TIMEOUT_MS);
  });
  await meter.phase('RD edit: controller settles (no request for 3 s)', () => ctx.controllersQuiet());
  const status = (await client.get<ResourceDistribution>(resources.resourceDistributions, { name: RD_NAME })).status;
  say(`RD final status: desired ${status?.desired ?? '?'}, succeeded ${status?.succeeded ?? '?'}`);
  return { create: create.seconds, edit: edit.seconds, baselineCreate: baselineCreate.seconds, baselineUpdate: baselineUpdate.seconds };
}
