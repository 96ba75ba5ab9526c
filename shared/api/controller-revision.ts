// The part of an apps/v1 ControllerRevision that SidecarSet injection reads (spec/webhooks.md §2.3). Kept structural so
// the webhook can hand over client-node V1ControllerRevision objects or plain JSON alike.

export interface ControllerRevisionLike {
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  /** Monotonic revision number; the highest one wins a custom-version lookup. */
  revision: number;
  /** RawExtension: the JSON object (or its text) written by the SidecarSet controller. */
  data: unknown;
}
