import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SidecarSet } from '../../api/sidecarset.js';
import { patchMetadataWhitelistError } from './patch-metadata.js';

const obj = (labels: Record<string, string> | undefined, keys: string[]): SidecarSet => ({
  metadata: { name: 's', labels },
  spec: { patchPodMetadata: [{ annotations: Object.fromEntries(keys.map((k) => [k, 'v'])), patchPolicy: 'Overwrite' }] },
});
const whitelist = (rules: unknown[]): string => JSON.stringify({ rules });

describe('TestValidateSidecarSetPatchMetadataWhitelist', () => {
  const cases: { name: string; obj: SidecarSet; raw: string | undefined; gate: boolean; err: string | undefined }[] = [
    { name: 'no whitelist and the defaults gate off is refused', obj: obj(undefined, ['oom-score']), raw: undefined, gate: false, err: 'SidecarSet patch metadata whitelist not found' },
    { name: 'no whitelist with the defaults gate on is allowed', obj: obj(undefined, ['oom-score']), raw: undefined, gate: true, err: undefined },
    { name: 'a selector-less rule whose regex matches allows the key', obj: obj(undefined, ['oom-score']), raw: whitelist([{ allowedAnnotationKeyExprs: ['^oom-score$'] }]), gate: false, err: undefined },
    {
      name: 'a key matching no regex is named in the refusal',
      obj: obj(undefined, ['oom-score', 'other']),
      raw: whitelist([{ allowedAnnotationKeyExprs: ['oom'] }]),
      gate: false,
      err: 'sidecarSet patch metadata annotation(other) is not allowed',
    },
    {
      name: 'a rule whose selector does not match the SidecarSet labels contributes nothing',
      obj: obj({ app: 'web' }, ['oom-score']),
      raw: whitelist([{ selector: { matchLabels: { app: 'db' } }, allowedAnnotationKeyExprs: ['.*'] }]),
      gate: false,
      err: 'sidecarSet patch metadata annotation is not allowed',
    },
    {
      name: 'a rule whose selector matches the SidecarSet labels applies (unanchored regex)',
      obj: obj({ app: 'web' }, ['x.oom-score.y']),
      raw: whitelist([{ selector: { matchLabels: { app: 'web' } }, allowedAnnotationKeyExprs: ['oom-score'] }]),
      gate: false,
      err: undefined,
    },
  ];
  for (const c of cases) it(c.name, () => assert.equal(patchMetadataWhitelistError(c.obj, c.raw, c.gate), c.err));
});
