import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImagePullJob, ImagePullJobSpec } from '../../shared/api/image-pull-job.js';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { mayTarget, selectTargets, type TargetSources } from './targets.js';

const ni = (name: string, labels: Record<string, string>): NodeImage => ({ metadata: { name, labels }, spec: {} });
const nis = [ni('a', { zone: 'x', gpu: 'yes' }), ni('b', { zone: 'x' }), ni('c', { zone: 'y' })];
const pod = (name: string, node: string | undefined, labels: Record<string, string>, o: { ns?: string; phase?: string; deleting?: boolean } = {}): Pod => ({
  metadata: { name, namespace: o.ns ?? 'ns', labels, ...(o.deleting ? { deletionTimestamp: new Date() } : {}) },
  spec: { containers: [], ...(node ? { nodeName: node } : {}) }, status: { phase: o.phase ?? 'Running' },
});
const pods = [
  pod('p1', 'c', { app: 'web' }), pod('p2', 'c', { app: 'web' }), pod('p3', 'a', { app: 'web' }),
  pod('pending', undefined, { app: 'web' }), pod('done', 'b', { app: 'web' }, { phase: 'Succeeded' }),
  pod('leaving', 'b', { app: 'web' }, { deleting: true }), pod('other-ns', 'b', { app: 'web' }, { ns: 'other' }),
  pod('ghost-node', 'gone', { app: 'web' }), pod('db', 'b', { app: 'db' }),
];
const src: TargetSources = {
  nodeImage: (n) => nis.find((x) => x.metadata?.name === n),
  nodeImages: () => nis,
  pods: (ns) => pods.filter((p) => p.metadata?.namespace === ns),
};
const job = (spec: Partial<ImagePullJobSpec>): ImagePullJob => ({ metadata: { name: 'j', namespace: 'ns' }, spec: { image: 'nginx', completionPolicy: {}, ...spec } });
const names = (l: NodeImage[]) => l.map((n) => n.metadata?.name);

test('target selection', () => {
  const cases: { name: string; spec: Partial<ImagePullJobSpec>; want: string[] }[] = [
    { name: 'no selector: every NodeImage', spec: {}, want: ['a', 'b', 'c'] },
    { name: 'names, missing ones skipped, duplicates once', spec: { selector: { names: ['c', 'nope', 'a', 'c'] } }, want: ['c', 'a'] },
    { name: 'empty names: none', spec: { selector: { names: [] } }, want: [] },
    { name: 'matchLabels over NodeImage labels', spec: { selector: { matchLabels: { zone: 'x' } } }, want: ['a', 'b'] },
    { name: 'matchExpressions', spec: { selector: { matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] } }, want: ['b', 'c'] },
    { name: 'selector {} selects all', spec: { selector: {} }, want: ['a', 'b', 'c'] },
    { name: 'podSelector: nodes of active bound pods in the job namespace, once each', spec: { podSelector: { matchLabels: { app: 'web' } } }, want: ['c', 'a'] },
    { name: 'podSelector matching nothing', spec: { podSelector: { matchLabels: { app: 'none' } } }, want: [] },
  ];
  for (const tc of cases) assert.deepEqual(names(selectTargets(job(tc.spec), src)), tc.want, tc.name);
  assert.throws(() => selectTargets(job({ selector: { matchExpressions: [{ key: 'k', operator: 'Bogus' }] } }), src), /not a valid label selector operator/);
});

test('mayTarget agrees with selectTargets for one NodeImage', () => {
  const specs: Partial<ImagePullJobSpec>[] = [{}, { selector: { names: ['a'] } }, { selector: { matchLabels: { zone: 'x' } } }, { selector: {} },
    { podSelector: { matchLabels: { app: 'web' } } }, { selector: { matchExpressions: [{ key: 'k', operator: 'Bogus' }] } }];
  for (const spec of specs) {
    let want: (string | undefined)[] = [];
    try { want = names(selectTargets(job(spec), src)); } catch { want = []; }
    for (const n of nis) {
      const onNode = () => pods.filter((p) => p.spec?.nodeName === n.metadata?.name);
      assert.equal(mayTarget(job(spec), n, onNode), want.includes(n.metadata?.name), `${JSON.stringify(spec)} on ${n.metadata?.name}`);
    }
  }
});
