// Golden tests: every testdata/<case>.input.yaml (SidecarSets, Namespaces, ControllerRevisions and one Pod) is run
// through mutatePodOnCreate and compared with testdata/<case>.golden.yaml. REFRESH_GOLDEN=1 rewrites the goldens.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import type { ControllerRevisionLike } from '../../api/controller-revision.js';
import type { Pod } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import { SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation } from '../../api/sidecarset.js';
import { deepFreeze } from '../../testing/freeze.js';
import { goldenDir } from '../../testing/golden.js';
import { mutatePodOnCreate } from '../pod-mutation.js';
import { defaultSidecarSet } from '../sidecarset-defaults.js';
import { makeCtx, NOW_TEXT } from './fixtures.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'testdata');
const golden = goldenDir(dir);

function run(input: string): Pod {
  const docs = yaml.loadAll(input) as { kind: string; metadata: { name: string; labels?: Record<string, string> } }[];
  const pods = docs.filter((d) => d.kind === 'Pod') as Pod[];
  assert.equal(pods.length, 1, 'each golden input holds exactly one Pod');
  // Informers hold SidecarSets as the SidecarSet webhook stored them: defaulted, with hash annotations.
  const sets = docs.filter((d) => d.kind === 'SidecarSet').map((d) => defaultSidecarSet(d as SidecarSet));
  const namespaces = Object.fromEntries(docs.filter((d) => d.kind === 'Namespace').map((d) => [d.metadata.name, d.metadata.labels ?? {}]));
  const revisionList = docs.filter((d) => d.kind === 'ControllerRevision') as unknown as ControllerRevisionLike[];
  // Frozen: the pipeline shares unchanged parts of the pod with its result and must never write into the input.
  return mutatePodOnCreate(deepFreeze(pods[0]!), makeCtx(deepFreeze(sets), { namespaces, revisionList: deepFreeze(revisionList) }));
}

const inputs = readdirSync(dir).filter((f) => f.endsWith('.input.yaml')).sort();
for (const file of inputs) {
  const name = file.replace(/\.input\.yaml$/, '');
  test(`golden: ${name}`, () => {
    const out = run(readFileSync(join(dir, file), 'utf8'));
    golden.check(`${name}.golden.yaml`, yaml.dump(out, { lineWidth: -1, noRefs: true }));
  });
}
after(() => golden.assertNoStale());

test('the seed example injects sidecar1 first with IS_INJECTED, the log volume and the SidecarSet hashes', () => {
  const docs = yaml.loadAll(readFileSync(join(dir, 'seed-demo.input.yaml'), 'utf8')) as object[];
  const set = defaultSidecarSet(docs[0] as SidecarSet);
  const out = run(readFileSync(join(dir, 'seed-demo.input.yaml'), 'utf8'));
  const [sidecar, app] = out.spec!.containers;
  assert.equal(sidecar!.name, 'sidecar1');
  assert.equal(app!.name, 'app');
  assert.deepEqual(sidecar!.env, [{ name: 'IS_INJECTED', value: 'true' }]);
  assert.deepEqual(sidecar!.volumeMounts, [{ name: 'log-volume', mountPath: '/var/log' }]);
  assert.deepEqual(out.spec!.volumes, [{ name: 'log-volume', emptyDir: {} }]);
  const a = out.metadata!.annotations!;
  const hash = set.metadata!.annotations![SidecarSetHashAnnotation]!;
  const noImage = set.metadata!.annotations![SidecarSetHashWithoutImageAnnotation]!;
  assert.equal(a[SidecarSetHashAnnotation], `{"scs-demo":{"updateTimestamp":"${NOW_TEXT}","hash":"${hash}","sidecarSetName":"scs-demo","sidecarList":["sidecar1"]}}`);
  assert.equal(a[SidecarSetHashWithoutImageAnnotation], `{"scs-demo":{"updateTimestamp":"${NOW_TEXT}","hash":"${noImage}","sidecarSetName":"scs-demo","sidecarList":["sidecar1"]}}`);
  assert.equal(a['kruise.io/sidecarset-injected-list'], 'scs-demo');
});
