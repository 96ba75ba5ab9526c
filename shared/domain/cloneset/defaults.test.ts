import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CloneSet } from '../../api/cloneset.js';
import { defaultCloneSet } from './defaults.js';

const bare = (): CloneSet => ({ metadata: { name: 'x' }, spec: { selector: { matchLabels: { a: 'b' } }, template: {
  metadata: { labels: { a: 'b' } },
  spec: { containers: [{ name: 'c', image: 'nginx:1', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '0.5', memory: '1024Mi' } } }], initContainers: [{ name: 'i', image: 'busybox:1.36' }] } } } });

describe('CloneSet defaulting (spec §1.4)', () => {
  it('strategy defaults and template defaults on CREATE', () => {
    const cs = defaultCloneSet(bare());
    assert.equal(cs.spec?.replicas, 1);
    assert.equal(cs.spec?.revisionHistoryLimit, 10);
    assert.deepEqual(cs.spec?.updateStrategy, { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 });
    const spec = cs.spec!.template.spec!;
    assert.deepEqual([spec.dnsPolicy, spec.restartPolicy, spec.schedulerName, spec.terminationGracePeriodSeconds], ['ClusterFirst', 'Always', 'default-scheduler', 30]);
    assert.deepEqual(spec.securityContext, {});
    const c = spec.containers[0]!;
    assert.equal(c.imagePullPolicy, 'Always', 'CloneSet containers always default to Always');
    assert.equal(spec.initContainers![0]!.imagePullPolicy, 'IfNotPresent', 'init containers follow the tag rule');
    assert.equal(c.ports![0]!.protocol, 'TCP');
    assert.deepEqual(c.resources?.limits, { cpu: '500m', memory: '1Gi' });
    assert.equal(cs.spec!.template.metadata?.creationTimestamp, undefined);
  });

  it('InPlace types get inPlaceUpdateStrategy {}', () => {
    const cs = bare();
    cs.spec!.updateStrategy = { type: 'InPlaceIfPossible' };
    assert.deepEqual(defaultCloneSet(cs).spec?.updateStrategy?.inPlaceUpdateStrategy, {});
  });

  it('UPDATE leaves an unchanged template alone and defaults a changed one', () => {
    const old = bare();
    assert.equal(defaultCloneSet(bare(), old).spec!.template.spec!.dnsPolicy, undefined);
    const changed = bare();
    changed.spec!.template.spec!.containers[0]!.image = 'nginx:2';
    assert.equal(defaultCloneSet(changed, old).spec!.template.spec!.dnsPolicy, 'ClusterFirst');
  });
});
