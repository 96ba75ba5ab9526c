// The ImagePullJob half of bench:distribution: one ImagePullJob over 1,000 kwok nodes. Times the NodeImages' creation,
// a baseline of the bench patching every NodeImage itself (through the same webhooks, at the controller's write
// concurrency), the time until every NodeImage carries the job's tag, and — with the bench playing the daemon and
// reporting every pull Succeeded — the time until the job reports completion.
import type { V1Node } from '@kubernetes/client-node';
import { WRITE_CONCURRENCY } from '../../controller/imagepulljob/controller.js';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { resources } from '../../shared/kube/resources.js';
import { BENCH_KWOK_NODE } from './bench-kwok.js';
import { forEachLimit } from '../../shared/concurrency.js';
import { say, until, type BenchContext } from './context.js';

const NODES = Number(process.env.BENCH_NODES ?? 1000);
const IMAGE = { ref: 'bench/imagepulljob:1', name: 'bench/imagepulljob', tag: '1' };
const NS = 'bench-imagepulljob';
const LABEL = 'kruise-ts.io/bench-imagepulljob';
const PHASE_TIMEOUT_MS = 300_000;

export interface IpjFigures {
  nodeImages: number; baseline: number; baselinePatch: number; tag: number;
  /** The daemon stand-in's 1,000 status reports, and from their start until the job completed. */
  report: number; complete: number;
}

const nodeName = (i: number) => `bench-ipj-${String(i).padStart(4, '0')}`;
const kwokNode = (name: string) => ({
  apiVersion: 'v1', kind: 'Node',
  metadata: { name, annotations: { 'kwok.x-k8s.io/node': BENCH_KWOK_NODE, 'node.alpha.kubernetes.io/ttl': '0' }, labels: { 'kubernetes.io/hostname': name, [LABEL]: 'yes' } },
  status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110' }, capacity: { cpu: '8', memory: '32Gi', pods: '110' } },
});

export async function imagePullJobBench(ctx: BenchContext): Promise<IpjFigures> {
  const { client, meter } = ctx;
  const names = Array.from({ length: NODES }, (_, i) => nodeName(i + 1));
  const nodeImages = ctx.informers.cache<NodeImage>(resources.nodeImages);
  const nodes = ctx.informers.cache<V1Node>(resources.nodes);
  const ready = () => names.filter((n) => nodes.get(n)?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  const present = () => names.filter((n) => nodeImages.get(n)).length;

  await meter.phase(`create ${NODES} kwok nodes (bench, 32 in flight) → Ready`, async () => {
    await forEachLimit(names, 32, (n) => client.create(resources.nodes, kwokNode(n)).catch((err: { code?: number }) => { if (err.code !== 409) throw err; }));
    await until('kwok marks the nodes Ready', () => ready() >= NODES, PHASE_TIMEOUT_MS, 200);
  });
  const created = await meter.phase(`NodeImages: all ${NODES} created by the controller`, () => until('NodeImages created', () => present() >= NODES, PHASE_TIMEOUT_MS));
  await ctx.controllersQuiet();

  // Baselines: the bench writes a tag like the job's (another image, no owner) into every NodeImage itself, once as
  // the controller does (PUT of the object from the cache) and once as a merge patch.
  // Removed again (untimed) so the job writes NodeImages of the same size as the baselines did.
  const removeTag = async (image: string) => {
    await forEachLimit(names, WRITE_CONCURRENCY, (n) => client.patch(resources.nodeImages, { name: n }, 'merge', { spec: { images: { [image]: null } } }));
    await ctx.controllersQuiet();
  };
  const baselineTag = (image: string) => ({ [image]: { tags: [{ tag: '1', version: 0, createdAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    pullPolicy: { ttlSecondsAfterFinished: 600, timeoutSeconds: 600, backoffLimit: 3 } }] } });
  const baseline = await meter.phase(`IPJ baseline: bench PUTs a tag into ${NODES} NodeImages from the cache (${WRITE_CONCURRENCY} in flight)`,
    () => forEachLimit(names, WRITE_CONCURRENCY, (n) => {
      const ni = nodeImages.get(n)!;
      return client.replace(resources.nodeImages, { ...ni, spec: { ...ni.spec, images: { ...ni.spec?.images, ...baselineTag('bench/baseline-put') } } });
    }));
  await removeTag('bench/baseline-put');
  const baselinePatch = await meter.phase(`IPJ baseline: bench merge-patches a tag into ${NODES} NodeImages (${WRITE_CONCURRENCY} in flight)`,
    () => forEachLimit(names, WRITE_CONCURRENCY, (n) => client.patch(resources.nodeImages, { name: n }, 'merge', { spec: { images: baselineTag('bench/baseline-patch') } })));
  await removeTag('bench/baseline-patch');

  await client.create(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  const tagged = () => names.filter((n) => nodeImages.get(n)?.spec?.images?.[IMAGE.name]?.tags?.some((x) => x.tag === IMAGE.tag)).length;
  say('creating the ImagePullJob');
  const tag = await meter.phase(`IPJ created → tag in all ${NODES} NodeImages`, async () => {
    await client.create(resources.imagePullJobs, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', metadata: { name: 'bench', namespace: NS },
      spec: { image: IMAGE.ref, parallelism: NODES, selector: { matchLabels: { [LABEL]: 'yes' } }, completionPolicy: { type: 'Always' } } });
    await until('every NodeImage carries the tag', () => tagged() >= NODES, PHASE_TIMEOUT_MS);
  });
  await meter.phase('IPJ tag: controllers settle (no request for 3 s)', () => ctx.controllersQuiet());

  // Play the daemon on every node: each NodeImage's status reports the pull Succeeded. The job completes as the last
  // report arrives, so completion is timed from the first report, next to how long the reports themselves took.
  const jobs = ctx.informers.cache<ImagePullJob>(resources.imagePullJobs);
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  let reportSeconds = 0;
  const complete = await meter.phase(`daemon stand-in reports ${NODES} pulls Succeeded (${WRITE_CONCURRENCY} in flight) → job completed`, async () => {
    const t0 = performance.now();
    await forEachLimit(names, WRITE_CONCURRENCY, (n) => client.patch(resources.nodeImages, { name: n, subresource: 'status' }, 'merge', { status: {
      desired: 1, succeeded: 1, failed: 0, pulling: 0, waiting: 0,
      imageStatuses: { [IMAGE.name]: { tags: [{ tag: IMAGE.tag, phase: 'Succeeded', version: 0, progress: 100, startTime: now, completionTime: now }] } } } }));
    reportSeconds = (performance.now() - t0) / 1000;
    await until('job completed', () => !!jobs.get(`${NS}/bench`)?.status?.completionTime, PHASE_TIMEOUT_MS);
  });
  say(`  the reports took ${reportSeconds.toFixed(2)} s; the job completed ${(complete.seconds - reportSeconds).toFixed(2)} s after the last one (as seen through the informer)`);
  await meter.phase('IPJ complete: controllers settle (no request for 3 s)', () => ctx.controllersQuiet());
  const st = jobs.get(`${NS}/bench`)?.status;
  say(`IPJ final status: desired ${st?.desired}, succeeded ${st?.succeeded}, failed ${st?.failed}, message ${st?.message}`);
  return { nodeImages: created.seconds, baseline: baseline.seconds, baselinePatch: baselinePatch.seconds, tag: tag.seconds, report: reportSeconds, complete: complete.seconds };
}
