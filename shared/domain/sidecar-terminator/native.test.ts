import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from '../../api/meta.js';
import { jobPod, main, sidecar, type PodOpts, type State } from './fixtures.js';
import { NATIVE_NOTE_WINDOW_MS, nativeMessage, nativeSidecarsToNote } from './native.js';
import { planTermination } from './plan.js';

const FINISHED = Date.parse('2025-06-01T11:59:00Z');
const native = (name = 'proxy', marked = true): Container => ({ name, image: 'proxy:1', restartPolicy: 'Always', ...(marked ? { env: sidecar().env } : {}) });
const pod = (states: Record<string, State>, opts: PodOpts = {}, init: Container[] = [native()], containers: Container[] = [main()]) =>
  jobPod(containers, states, { initContainers: init, ...opts });

describe('nativeSidecarsToNote', () => {
  const cases: { name: string; pod: ReturnType<typeof pod>; now?: number; want: string[] }[] = [
    { name: 'main finished a minute ago: the marked native sidecar is named', pod: pod({ main: 0 }), want: ['proxy'] },
    { name: 'also once the pod is Succeeded (the kubelet was quick)', pod: pod({ main: 0 }, { phase: 'Succeeded' }), want: ['proxy'] },
    { name: 'main still running: not yet', pod: pod({ main: 'running' }), want: [] },
    { name: 'OnFailure and main failed: the kubelet restarts it, not the moment', pod: pod({ main: 1 }, { restartPolicy: 'OnFailure' }), want: [] },
    { name: 'Never and main failed: the moment', pod: pod({ main: 1 }), want: ['proxy'] },
    { name: 'restartPolicy Always: never', pod: pod({ main: 0 }, { restartPolicy: 'Always' }), want: [] },
    { name: 'deleting: never', pod: pod({ main: 0 }, { deleting: true }), want: [] },
    { name: 'a native sidecar without a marker is none of Kruise\'s business', pod: pod({ main: 0 }, {}, [native('istio', false)]), want: [] },
    { name: 'a marked init container that is not native (runs to completion first) is not named', pod: pod({ main: 0 }, {}, [{ ...native('init'), restartPolicy: undefined }]), want: [] },
    { name: 'only the marked ones, in spec order', pod: pod({ main: 0 }, {}, [native('b'), native('istio', false), native('a')]), want: ['b', 'a'] },
    { name: 'past the window (a restarted controller meets an old pod): not named', pod: pod({ main: 0 }), now: FINISHED + NATIVE_NOTE_WINDOW_MS + 1, want: [] },
    { name: 'an env-marked regular sidecar does not count as a main container', pod: pod({ main: 0, side: 'running' }, {}, [native()], [main(), sidecar('side')]), want: ['proxy'] },
  ];
  for (const tc of cases) it(tc.name, () => assert.deepEqual(nativeSidecarsToNote(tc.pod, tc.now ?? FINISHED + 60_000), tc.want));

  it('a pod whose only marked sidecar is native gets no termination step: the kubelet stops it', () => {
    assert.deepEqual(planTermination(pod({ main: 0 }), false), []);
  });
  it('the message names them as Go prints a list', () => {
    assert.match(nativeMessage(['a', 'b']), /^Kruise SidecarTerminator leaves sidecar \[a b\] to the kubelet: native sidecars/);
  });
});
