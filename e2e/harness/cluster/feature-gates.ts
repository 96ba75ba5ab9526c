// Feature gates of the e2e stack. The shipped defaults are upstream's (shared/config.ts: ResourceDistributionGate off,
// as the Helm chart); the test install turns on every gated feature it tests, as OpenKruise's own e2e install does.
// FEATURE_GATES in the caller's environment replaces this list (e.g. to test a gate that is off). ImageVolume is
// Kubernetes' gate, which kruise's --feature-gates also sets: on, the image volume's pullPolicy is defaulted.
// PodUnavailableBudgetUpdateGate (alpha, off by default) puts pod UPDATEs under PUB (e2e/podunavailablebudget.e2e.test.ts).
// SidecarTerminator acts only on Job-like pods with marked sidecars (e2e/sidecar-terminator.e2e.test.ts), which no
// other test makes. ResourcesDeletionProtection only sees objects labelled policy.kruise.io/delete-protection.
export const e2eFeatureGates = process.env.FEATURE_GATES ?? 'ResourceDistributionGate=true,ImageVolume=true,PodUnavailableBudgetUpdateGate=true,SidecarTerminator=true,ResourcesDeletionProtection=true';
