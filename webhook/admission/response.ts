// AdmissionResponse builders in controller-runtime's vocabulary (pkg/webhook/admission/response.go, spec §6 shapes).
import type { PatchResult } from './patch.js';

export interface AdmissionStatus {
  code: number;
  reason?: string;
  message?: string;
}

/** The response minus `uid`, which route.ts copies from the request so every path echoes it. */
export interface AdmissionResult {
  allowed: boolean;
  status?: AdmissionStatus;
  patch?: string;
  patchType?: 'JSONPatch';
  warnings?: string[];
}

export const allowed = (message?: string): AdmissionResult => ({ allowed: true, status: { code: 200, ...(message ? { message } : {}) } });

/** An allowed response carrying the patch, or plain allowed() when the diff is empty (no empty patch is ever sent). */
export const patched = (p: PatchResult): AdmissionResult => (p.patch ? { allowed: true, patch: p.patch, patchType: 'JSONPatch' } : allowed());

/** A deliberate refusal: 403 Forbidden like controller-runtime's Denied / ValidationResponse(false). */
export const denied = (message: string): AdmissionResult => ({ allowed: false, status: { code: 403, reason: 'Forbidden', message } });

/** A refusal with a specific HTTP-style code (400 bad input, 422 invalid, 500 internal), like controller-runtime's Errored. */
export const errored = (code: number, err: unknown): AdmissionResult => ({
  allowed: false,
  status: { code, message: err instanceof Error ? err.message : String(err) },
});

export type ResultLabel = 'allowed' | 'patched' | 'denied' | 'errored';

export function resultLabel(r: AdmissionResult): ResultLabel {
  if (r.allowed) return r.patch ? 'patched' : 'allowed';
  return (r.status?.code ?? 500) >= 500 ? 'errored' : 'denied';
}
