// Test support for the pod-spec rule tables: a valid, defaulted sidecar container to vary, and a runner asserting
// the exact "<path>: <type>: <detail>" lines a case produces. Imported by *.test.ts only.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Container, Volume } from '../../api/meta.js';
import { formatViolation } from '../../errors.js';
import { validatePodSpecSubset, type PodSpecSubset } from './pod-spec.js';

type Loose = Record<string, any>;

/** A container as the SidecarSet defaulter leaves it, so only the field a case sets can be wrong. */
export const container = (over: Loose = {}): Container =>
  ({ name: 'app', image: 'busybox', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', ...over }) as Container;

export const volume = (v: Loose): Volume => v as Volume;

export interface RuleCase {
  /** The rule, as a sentence. */
  name: string;
  spec: PodSpecSubset;
  /** Exactly the messages Kubernetes reports, in order. */
  want: string[];
}

export function runRuleCases(cases: readonly RuleCase[]): void {
  for (const tc of cases) {
    it(tc.name, () => assert.deepEqual(validatePodSpecSubset(tc.spec).map(formatViolation), tc.want));
  }
}

/** A one-container spec, the shape most rules need. */
export const withContainer = (over: Loose, volumes?: Loose[]): PodSpecSubset => ({
  containers: [container(over)],
  ...(volumes ? { volumes: volumes as Volume[] } : {}),
});
