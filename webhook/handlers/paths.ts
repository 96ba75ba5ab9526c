// OpenKruise v1.9 serves the SidecarSet, ImagePullJob, ImageListPullJob and NodeImage webhooks at paths without the
// version (spec/openkruise-v1.9.md §9.1); v1.8 served them at `-v1alpha1-` paths. kruise-ts serves both, with the same
// handler (which branches on the request's version), so a webhook configuration written by either release works.
import type { WebhookRoute } from '../admission/route.js';

/** v1.9 path → the v1.8 path of the same webhook. CRR and ResourceDistribution kept their `-v1alpha1-` paths. */
export const V18_PATHS: Readonly<Record<string, string>> = Object.freeze({
  '/mutate-apps-kruise-io-sidecarset': '/mutate-apps-kruise-io-v1alpha1-sidecarset',
  '/validate-apps-kruise-io-sidecarset': '/validate-apps-kruise-io-v1alpha1-sidecarset',
  '/mutate-apps-kruise-io-imagepulljob': '/mutate-apps-kruise-io-v1alpha1-imagepulljob',
  '/validate-apps-kruise-io-imagepulljob': '/validate-apps-kruise-io-v1alpha1-imagepulljob',
  '/mutate-apps-kruise-io-imagelistpulljob': '/mutate-apps-kruise-io-v1alpha1-imagelistpulljob',
  '/validate-apps-kruise-io-imagelistpulljob': '/validate-apps-kruise-io-v1alpha1-imagelistpulljob',
  '/mutate-apps-kruise-io-nodeimage': '/mutate-apps-kruise-io-v1alpha1-nodeimage',
  '/validate-apps-kruise-io-nodeimage': '/validate-apps-kruise-io-v1alpha1-nodeimage',
});

/** Every route, followed by a copy at its v1.8 path when it has one (same handler and name; metrics are per path). */
export function withV18Paths(routes: readonly WebhookRoute[]): WebhookRoute[] {
  return routes.flatMap((r) => (V18_PATHS[r.path] ? [r, { ...r, path: V18_PATHS[r.path]! }] : [r]));
}
