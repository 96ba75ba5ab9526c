import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GATE_DEFAULTS, parseFeatureGates } from './feature-gates.js';

const cases: { name: string; value: string; gates?: Partial<Record<keyof typeof GATE_DEFAULTS, boolean>>; unimplemented?: string[]; problem?: RegExp }[] = [
  { name: 'empty keeps the chart defaults', value: '', gates: GATE_DEFAULTS },
  { name: 'a gate kruise-ts has is set', value: 'ResourceDistributionGate=true', gates: { ResourceDistributionGate: true } },
  { name: 'spaces and case of the value are tolerated', value: ' ResourceDistributionGate = True , KruiseDaemon=FALSE', gates: { ResourceDistributionGate: true, KruiseDaemon: false } },
  { name: 'an upstream gate kruise-ts does not have is accepted and reported', value: 'CloneSetShortHash=true', gates: GATE_DEFAULTS, unimplemented: ['CloneSetShortHash=true'] },
  { name: 'WorkloadSpread is on by default and PodWebhook=false forces it off, as upstream', value: 'PodWebhook=false', gates: { WorkloadSpread: false } },
  { name: 'the v1.9 gates are known', value: 'EnableSortSidecarContainerByName=true,CloneSetShortHash=true', gates: { EnableSortSidecarContainerByName: true }, unimplemented: ['CloneSetShortHash=true'] },
  { name: 'the PUB gates: DeleteGate on and UpdateGate off by default, both forced off by PodWebhook=false', value: 'InPlacePodVerticalScaling=true', gates: { PodUnavailableBudgetDeleteGate: true, PodUnavailableBudgetUpdateGate: false, InPlacePodVerticalScaling: true } },
  { name: 'PodWebhook=false forces the PUB gates off', value: 'PodWebhook=false,PodUnavailableBudgetUpdateGate=true', gates: { PodUnavailableBudgetDeleteGate: false, PodUnavailableBudgetUpdateGate: false } },
  { name: 'EnableSortSidecarContainerByName is off by default, as upstream', value: 'PodWebhook=true', gates: { EnableSortSidecarContainerByName: false } },
  { name: 'a name no OpenKruise version knows is refused', value: 'NoSuchGate=true', problem: /unrecognized feature gate: NoSuchGate/ },
  { name: 'a value other than true/false is refused', value: 'KruiseDaemon=yes', problem: /invalid value of KruiseDaemon=yes/ },
  { name: 'KruiseDaemon=false forces ImagePullJobGate off, as upstream', value: 'KruiseDaemon=false', gates: { PodWebhook: true, KruiseDaemon: false, ImagePullJobGate: false } },
  { name: 'KruiseDaemon=false forces PodProbeMarkerGate off, as upstream, even when set', value: 'PodProbeMarkerGate=true,KruiseDaemon=false', gates: { PodProbeMarkerGate: false } },
  { name: 'PodProbeMarkerGate is on by default and can be turned off', value: 'PodProbeMarkerGate=false', gates: { PodProbeMarkerGate: false, KruiseDaemon: true } },
  { name: 'KruiseDaemon=false wins over an explicit ImagePullJobGate=true', value: 'ImagePullJobGate=true,KruiseDaemon=false', gates: { ImagePullJobGate: false } },
  { name: 'PodWebhook=false forces SidecarSetPatchPodMetadataDefaultsAllowed off', value: 'PodWebhook=false,SidecarSetPatchPodMetadataDefaultsAllowed=true', gates: { PodWebhook: false, SidecarSetPatchPodMetadataDefaultsAllowed: false } },
  { name: 'a pre-download gate turns ImagePullJobGate on', value: 'ImagePullJobGate=false,PreDownloadImageForInPlaceUpdate=true', gates: { ImagePullJobGate: true, PreDownloadImageForInPlaceUpdate: true } },
  { name: 'KruiseDaemon=false forces the pre-download gate off', value: 'PreDownloadImageForInPlaceUpdate=true,KruiseDaemon=false', gates: { PreDownloadImageForInPlaceUpdate: false, ImagePullJobGate: false } },
  { name: 'SidecarTerminator is off by default, as upstream (alpha)', value: 'PodWebhook=true', gates: { SidecarTerminator: false } },
  { name: 'SidecarTerminator=true turns it on', value: 'SidecarTerminator=true', gates: { SidecarTerminator: true, KruiseDaemon: true } },
  { name: 'KruiseDaemon=false forces SidecarTerminator off, as upstream', value: 'SidecarTerminator=true,KruiseDaemon=false', gates: { SidecarTerminator: false } },
  { name: 'AllAlpha=true turns the alpha gates on', value: 'AllAlpha=true', gates: { ResourceDistributionGate: true, SidecarSetPatchPodMetadataDefaultsAllowed: true, EnableSortSidecarContainerByName: true, SidecarTerminator: true, PodWebhook: true } },
  { name: 'AllBeta=false turns the beta gates off', value: 'AllBeta=false', gates: { PodWebhook: false, KruiseDaemon: false, ImagePullJobGate: false } },
  { name: 'AllAlpha=true with AllBeta=false: SidecarTerminator off with KruiseDaemon', value: 'AllAlpha=true,AllBeta=false', gates: { SidecarTerminator: false, KruiseDaemon: false } },
];

for (const tc of cases) {
  test(tc.name, () => {
    const r = parseFeatureGates(tc.value);
    if (tc.problem) {
      assert.equal(r.problems.length, 1);
      assert.match(r.problems[0]!, tc.problem);
      return;
    }
    assert.deepEqual(r.problems, []);
    for (const [k, v] of Object.entries(tc.gates ?? {})) assert.equal(r.gates[k as keyof typeof GATE_DEFAULTS], v, k);
    assert.deepEqual(r.unimplemented, tc.unimplemented ?? []);
  });
}
