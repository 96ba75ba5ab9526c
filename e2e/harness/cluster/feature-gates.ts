// Feature gates of the e2e stack. The shipped defaults are upstream's (shared/config.ts: ResourceDistributionGate off,
// as the Helm chart); the test install turns on every gated feature it tests, as OpenKruise's own e2e install does.
// FEATURE_GATES in the caller's environment replaces this list (e.g. to test a gate that is off). ImageVolume is
// Kubernetes' gate, which kruise's --feature-gates also sets: on, the image volume's pullPolicy is defaulted.
export const e2eFeatureGates = process.env.FEATURE_GATES ?? 'ResourceDistributionGate=true,ImageVolume=true,ResourcesDeletionProtection=true';
