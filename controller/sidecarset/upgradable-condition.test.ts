import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { NOW, NOW_TEXT } from './fixtures.js';
import { upgradableConditionPatch } from './upgradable-condition.js';

const pod = (condition?: Record<string, unknown>): Pod => ({ status: { conditions: condition ? [condition as never] : [] } });
const cond = (status: string, message: string, reason: string) =>
  ({ type: 'SidecarSetUpgradable', status, lastTransitionTime: '2026-01-01T00:00:00Z', reason, message });

const cases: { name: string; pod: Pod; set: string; upgradable: boolean; want: unknown }[] = [
  {
    name: 'a first not-upgradable mark creates the condition False',
    pod: pod(), set: 'a', upgradable: false,
    want: { status: { conditions: [{ type: 'SidecarSetUpgradable', status: 'False', lastProbeTime: null, lastTransitionTime: NOW_TEXT, reason: 'UpdateImmutableField', message: '{"a":false}' }] } },
  },
  {
    name: 'True only when every SidecarSet in the message is upgradable; the transition time moves on a flip',
    pod: pod(cond('False', '{"a":false,"b":true}', 'UpdateImmutableField')), set: 'a', upgradable: true,
    want: { status: { conditions: [{ type: 'SidecarSetUpgradable', status: 'True', lastProbeTime: null, lastTransitionTime: NOW_TEXT, reason: 'AllSidecarsetUpgradable', message: '{"a":true,"b":true}' }] } },
  },
  {
    name: 'another SidecarSet still blocking keeps it False (transition time kept)',
    pod: pod(cond('False', '{"b":false}', 'UpdateImmutableField')), set: 'a', upgradable: true,
    want: { status: { conditions: [{ type: 'SidecarSetUpgradable', status: 'False', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'UpdateImmutableField', message: '{"a":true,"b":false}' }] } },
  },
  { name: 'no change, no patch', pod: pod(cond('True', '{"a":true}', 'AllSidecarsetUpgradable')), set: 'a', upgradable: true, want: null },
];
for (const tc of cases) test(tc.name, () => assert.deepEqual(upgradableConditionPatch(tc.pod, tc.set, tc.upgradable, NOW), tc.want));
