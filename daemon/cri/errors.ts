// Typed CRI failures. gRPC status codes are mapped once here so daemon logic can branch on `kind` and never
// parse messages or import grpc.
import { status as Status } from '@grpc/grpc-js';

export type CriErrorKind =
  | 'not-found'
  | 'unavailable'
  | 'deadline-exceeded'
  | 'unauthenticated'
  | 'permission-denied'
  | 'invalid-argument'
  | 'already-exists'
  | 'failed-precondition'
  | 'resource-exhausted'
  | 'unimplemented'
  | 'canceled'
  | 'internal'
  | 'unknown';

const KIND_BY_CODE: Partial<Record<Status, CriErrorKind>> = {
  [Status.NOT_FOUND]: 'not-found',
  [Status.UNAVAILABLE]: 'unavailable',
  [Status.DEADLINE_EXCEEDED]: 'deadline-exceeded',
  [Status.UNAUTHENTICATED]: 'unauthenticated',
  [Status.PERMISSION_DENIED]: 'permission-denied',
  [Status.INVALID_ARGUMENT]: 'invalid-argument',
  [Status.OUT_OF_RANGE]: 'invalid-argument',
  [Status.ALREADY_EXISTS]: 'already-exists',
  [Status.FAILED_PRECONDITION]: 'failed-precondition',
  [Status.ABORTED]: 'failed-precondition',
  [Status.RESOURCE_EXHAUSTED]: 'resource-exhausted',
  [Status.UNIMPLEMENTED]: 'unimplemented',
  [Status.CANCELLED]: 'canceled',
  [Status.INTERNAL]: 'internal',
  [Status.DATA_LOSS]: 'internal',
};

/** Kinds worth retrying with backoff: the runtime was unreachable or slow, not wrong. */
const TRANSIENT: ReadonlySet<CriErrorKind> = new Set(['unavailable', 'deadline-exceeded', 'resource-exhausted', 'canceled']);

export class CriError extends Error {
  readonly kind: CriErrorKind;
  /** The RPC that failed, e.g. `ImageService/PullImage`. */
  readonly method: string;
  readonly grpcCode: number | undefined;
  constructor(kind: CriErrorKind, method: string, message: string, options?: { cause?: unknown; grpcCode?: number }) {
    super(`${method}: ${message}`, options);
    this.name = 'CriError';
    this.kind = kind;
    this.method = method;
    this.grpcCode = options?.grpcCode;
  }
  get transient(): boolean {
    return TRANSIENT.has(this.kind);
  }
}

/**
 * Registries' 401s reach us as code UNKNOWN with the registry's words in the message (containerd and CRI-O
 * wrap the resolver error as text), so a pull rejected for credentials is recognised by those words.
 */
const AUTH_FAILURE = /\b401\b|unauthorized|authentication required|authorization failed/i;

export function criErrorFromGrpc(err: unknown, method: string): CriError {
  const e = err as { code?: unknown; details?: unknown; message?: unknown };
  const code = typeof e?.code === 'number' ? e.code : undefined;
  const details = typeof e?.details === 'string' && e.details ? e.details : String(e?.message ?? err);
  let kind: CriErrorKind = code === undefined ? 'unknown' : (KIND_BY_CODE[code as Status] ?? 'unknown');
  if (kind === 'unknown' && method.endsWith('/PullImage') && AUTH_FAILURE.test(details)) kind = 'unauthenticated';
  return new CriError(kind, method, details, { cause: err, grpcCode: code });
}

export function isCriError(err: unknown, kind?: CriErrorKind): err is CriError {
  return err instanceof CriError && (kind === undefined || err.kind === kind);
}
