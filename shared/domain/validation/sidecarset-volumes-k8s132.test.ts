// SidecarSet volumes through the mutating then the validating webhook, as the apiserver chains them, with Kubernetes
// 1.32's volume defaults and rules (OpenKruise v1.9.0). Messages are Kubernetes 1.32's (pkg/apis/core/validation:
// validateImageVolumeSource, ValidateVolumeMounts; TestValidateVolumes "image volume with wrong pullPolicy",
// TestValidateVolumeMounts "subPath/subPathExpr not allowed for image volume sources").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SidecarSet } from '../../api/sidecarset.js';
import { formatViolations } from '../../errors.js';
import { defaultSidecarSet } from '../sidecarset-defaults.js';
import { aloneContext } from '../../testing/sidecarset-context.js';
import { validateSidecarSet } from './sidecarset.js';

const ctx = aloneContext;

const artifact = 'quay.io/my/artifact:v1';
const NOT_FOUND = 'spec.containers[0].volumeMounts[0].name: Not found: "art"';
const raw = (volumes: object[], mount: object = { name: 'art', mountPath: '/art' }): SidecarSet => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: 'image-volumes' },
  spec: { selector: { matchLabels: { app: 'x' } }, containers: [{ name: 'side', image: 'busybox:1.36', volumeMounts: [mount] }], volumes },
} as SidecarSet);

/** The denial's errors (none when admitted) after defaulting with the ImageVolume gate as given. */
const admit = (s: SidecarSet, imageVolume = false): string[] =>
  validateSidecarSet(defaultSidecarSet(s, { imageVolume }), undefined, ctx).map((v) => formatViolations([v]));

describe('SidecarSet image volumes (Kubernetes 1.32 as OpenKruise v1.9.0 runs it)', () => {
  it('an image volume with a pullPolicy is admitted and defaulted as written (no emptyDir beside it)', () => {
    const s = raw([{ name: 'art', image: { reference: artifact, pullPolicy: 'IfNotPresent' } }]);
    assert.deepEqual(admit(s), []);
    assert.deepEqual(defaultSidecarSet(s).spec!.volumes, [{ name: 'art', image: { reference: artifact, pullPolicy: 'IfNotPresent' } }]);
  });

  it('without a pullPolicy: refused with the ImageVolume gate off (the default), defaulted and admitted with it on', () => {
    const s = raw([{ name: 'art', image: { reference: artifact } }]);
    // As upstream: a volume that fails validation is not there for the mounts either.
    assert.deepEqual(admit(s), ['spec.volumes[0].image.pullPolicy: Required value', NOT_FOUND]);
    assert.deepEqual(admit(s, true), []);
    assert.deepEqual(defaultSidecarSet(s, { imageVolume: true }).spec!.volumes, [{ name: 'art', image: { reference: artifact, pullPolicy: 'IfNotPresent' } }]);
  });

  it('an empty reference is accepted (ResourceIsPod is false for the fake pod); a wrong pullPolicy is not', () => {
    assert.deepEqual(admit(raw([{ name: 'art', image: { pullPolicy: 'IfNotPresent' } }])), []);
    assert.deepEqual(admit(raw([{ name: 'art', image: { reference: artifact, pullPolicy: 'wrong' } }])),
      ['spec.volumes[0].image.pullPolicy: Unsupported value: "wrong": supported values: "Always", "IfNotPresent", "Never"', NOT_FOUND]);
  });

  it('an image volume and another source is "may not specify more than 1 volume type"', () => {
    assert.deepEqual(admit(raw([{ name: 'art', emptyDir: {}, image: { reference: artifact, pullPolicy: 'Always' } }])),
      ['spec.volumes[0].image: Forbidden: may not specify more than 1 volume type', NOT_FOUND]);
  });

  it('subPath and subPathExpr are not allowed on an image volume mount (1.32; 1.33 lifted it)', () => {
    const vols = [{ name: 'art', image: { reference: artifact, pullPolicy: 'IfNotPresent' } }];
    assert.deepEqual(admit(raw(vols, { name: 'art', mountPath: '/image-volume-err-1', subPath: 'foo' })),
      ['spec.containers[0].volumeMounts[0].subPath: Invalid value: "foo": not allowed in image volume sources']);
    assert.deepEqual(admit(raw(vols, { name: 'art', mountPath: '/image-volume-err-2', subPathExpr: '$(POD_NAME)' })),
      ['spec.containers[0].volumeMounts[0].subPathExpr: Invalid value: "$(POD_NAME)": not allowed in image volume sources']);
    assert.deepEqual(admit(raw([{ name: 'art', emptyDir: {} }], { name: 'art', mountPath: '/d', subPath: 'foo' })), [], 'other sources keep subPath');
  });
});

describe('volume sources whose defaulters Kubernetes 1.31 removed are validated as written', () => {
  it('an azureDisk without kind is no longer defaulted to Shared, so a non-blob URI is accepted', () => {
    const s = raw([{ name: 'art', azureDisk: { diskName: 'd', diskURI: 'http://x' } }]);
    assert.deepEqual(admit(s), []);
    assert.deepEqual(defaultSidecarSet(s).spec!.volumes, [{ name: 'art', azureDisk: { diskName: 'd', diskURI: 'http://x' } }]);
  });

  it('rbd, iscsi and scaleIO keep empty pool/user/keyring, iscsiInterface, storageMode/fsType', () => {
    const vols = [
      { name: 'art', rbd: { monitors: ['m:6789'], image: 'img' } },
      { name: 'i', iscsi: { targetPortal: 'p:3260', iqn: 'iqn.2001-04.com.example:d', lun: 0 } },
      { name: 's', scaleIO: { gateway: 'g', system: 's', volumeName: 'v', secretRef: { name: 'x' } } },
    ];
    const s = raw(vols);
    assert.deepEqual(admit(s), []);
    assert.deepEqual(defaultSidecarSet(s).spec!.volumes, vols);
  });
});
