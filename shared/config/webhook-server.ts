// The admission server's limits (webhook/app.ts) and how the environment sets them (WEBHOOK_*): the webhook's part of
// the manager's configuration (manager.ts).
import { Type, type Static, type TObject } from '@sinclair/typebox';

const MIB = 1024 * 1024;

/** The admission server's timeouts and caps (webhook/app.ts); env `WEBHOOK_*_SECONDS`, `WEBHOOK_MAX_*`. */
export interface WebhookServerLimits {
  /**
   * Headers plus body must arrive within this (Node's requestTimeout). 30 s: the apiserver gives up on a webhook call
   * after timeoutSeconds, at most 30, so a request still arriving after that has no one waiting for its answer.
   */
  readonly requestTimeoutMs: number;
  /**
   * The TLS handshake, and then the request headers, must each complete within this. 10 s: the apiserver sends its
   * headers in one write; only a slow or hostile client needs more (Node's 60 s let slowloris hold sockets).
   */
  readonly headersTimeoutMs: number;
  /**
   * Socket inactivity while a request is read or answered (Fastify's connectionTimeout). 30 s, as the request
   * timeout: it also cuts a client that stops reading its response, which requestTimeout does not cover.
   */
  readonly connectionTimeoutMs: number;
  /**
   * An idle kept-alive connection is closed after this. 60 s: the apiserver reuses its connections (Go's idle
   * timeout is 90 s), so any cluster admitting a pod a minute keeps saving a TLS handshake per review, while a
   * connection left idle stops holding a maxConnections slot after a minute instead of Fastify's 72 s. Below Go's 90 s
   * as Fastify's default already was: the server, not the client, closes first either way.
   */
  readonly keepAliveTimeoutMs: number;
  /**
   * Open connections at once; more are closed on accept. 1000: each apiserver replica opens one connection per
   * concurrent review (HTTP/1.1), a few dozen in a burst, and an idle TLS connection costs tens of KiB, so the cap
   * bounds that cost to tens of MiB while leaving the apiserver ample headroom.
   */
  readonly maxConnections: number;
  /**
   * Bytes of admission bodies buffered at once across all connections (webhook/admission/byte-budget.ts). 64 MiB:
   * nine maximal (7 MiB) reviews, far above what the apiserver sends at once, and a bound that keeps a flood of
   * stalled bodies well under the container's 1 GiB limit (each such body held up to 7 MiB before).
   */
  readonly maxInFlightBodyBytes: number;
  /**
   * Of those bytes, what the requests of one source address may hold at once, body and reply (review N-H3). 16 MiB:
   * one maximal review with its largest reply (7 + 3 MiB) or one maximal /convert with its reply fits, so no source is
   * refused a single request; a stalled client needs four sources to hold the whole budget, not one. The apiserver's
   * own reviews are a few dozen KiB each, so 16 MiB is hundreds of concurrent reviews from its address; past that a
   * review gets 503 with Retry-After: 1, which the apiserver retries within the webhook's timeout.
   */
  readonly maxInFlightBodyBytesPerSource: number;
  /**
   * Of maxInFlightBodyBytes, what only small requests (body plus reply at most 1 MiB) may use. 8 MiB: a few hundred
   * ordinary pod reviews are still buffered while big bodies hold all the rest.
   */
  readonly smallRequestReserveBytes: number;
  /**
   * What all /convert requests together may hold, body and reply (review N-H3, N-M1). 16 MiB: one maximal conversion
   * (7 MiB, webhook/conversion/route.ts) with its reply; conversions happen only when a client reads a kind in a
   * version other than the stored one, so they need not run side by side with admission at full size.
   */
  readonly maxInFlightConversionBytes: number;
  /**
   * A reply not handed to the kernel within this is destroyed with its connection (review N-H2). 10 s: the pod
   * webhook's timeoutSeconds, after which the apiserver no longer waits; a 3 MiB reply takes milliseconds to a
   * reader that reads. Until then the reply's bytes stay charged to the request's share of the budget.
   */
  readonly replyWriteTimeoutMs: number;
  /**
   * Open connections from one source address (review N-H4); more are closed on accept. 256: the apiserver opens one
   * connection per concurrent call, from one address per apiserver (or the node's, through kube-proxy), and its
   * concurrency is bounded by its in-flight seats (600 by default, of which API Priority and Fairness gives pod writes
   * the workload levels, a few hundred at most, spread over the webhook's replicas), so it does not reach 256 on one
   * replica; raise it when several apiservers reach the webhook through one address (a shared proxy). One source
   * then holds at most a quarter of maxConnections, and when the server is full a newcomer from a smaller source
   * takes the slot of an idle connection of the largest (webhook/connection-limits.ts).
   */
  readonly maxConnectionsPerSource: number;
}

export const WEBHOOK_SERVER_DEFAULTS: WebhookServerLimits = Object.freeze({
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  connectionTimeoutMs: 30_000,
  keepAliveTimeoutMs: 60_000,
  maxConnections: 1000,
  maxInFlightBodyBytes: 64 * MIB,
  maxInFlightBodyBytesPerSource: 16 * MIB,
  smallRequestReserveBytes: 8 * MIB,
  maxInFlightConversionBytes: 16 * MIB,
  replyWriteTimeoutMs: 10_000,
  maxConnectionsPerSource: 256,
});


const sec = (ms: number) => ms / 1000;

/** The webhook's keys: its server's limits, shutdown and admission pool. */
export const WEBHOOK_ENV = {
  WEBHOOK_REQUEST_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: sec(WEBHOOK_SERVER_DEFAULTS.requestTimeoutMs) }),
  WEBHOOK_HEADERS_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: sec(WEBHOOK_SERVER_DEFAULTS.headersTimeoutMs) }),
  WEBHOOK_CONNECTION_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: sec(WEBHOOK_SERVER_DEFAULTS.connectionTimeoutMs) }),
  WEBHOOK_KEEPALIVE_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: sec(WEBHOOK_SERVER_DEFAULTS.keepAliveTimeoutMs) }),
  WEBHOOK_MAX_CONNECTIONS: Type.Integer({ minimum: 1, default: WEBHOOK_SERVER_DEFAULTS.maxConnections }),
  // At least one maximal review (7 MiB, webhook/admission/route.ts) must fit, or large objects could never be admitted.
  WEBHOOK_MAX_INFLIGHT_BODY_MIB: Type.Integer({ minimum: 7, default: WEBHOOK_SERVER_DEFAULTS.maxInFlightBodyBytes / MIB }),
  // At least one maximal review with its largest reply (7 + 3 MiB) per source, one maximal conversion with its reply;
  // each share is capped at the total (webhookServerLimits), so a smaller WEBHOOK_MAX_INFLIGHT_BODY_MIB needs no other change.
  WEBHOOK_MAX_INFLIGHT_BODY_MIB_PER_SOURCE: Type.Integer({ minimum: 10, default: WEBHOOK_SERVER_DEFAULTS.maxInFlightBodyBytesPerSource / MIB }),
  WEBHOOK_SMALL_REQUEST_RESERVE_MIB: Type.Integer({ minimum: 0, default: WEBHOOK_SERVER_DEFAULTS.smallRequestReserveBytes / MIB }),
  WEBHOOK_MAX_INFLIGHT_CONVERSION_MIB: Type.Integer({ minimum: 14, default: WEBHOOK_SERVER_DEFAULTS.maxInFlightConversionBytes / MIB }),
  WEBHOOK_REPLY_WRITE_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: sec(WEBHOOK_SERVER_DEFAULTS.replyWriteTimeoutMs) }),
  WEBHOOK_MAX_CONNECTIONS_PER_SOURCE: Type.Integer({ minimum: 1, default: WEBHOOK_SERVER_DEFAULTS.maxConnectionsPerSource }),
  WEBHOOK_DRAIN_SECONDS: Type.Integer({ minimum: 0, maximum: 300, default: 5 }),
  WEBHOOK_SHUTDOWN_GRACE_SECONDS: Type.Integer({ minimum: 1, maximum: 300, default: 10 }),
  // The admission worker pool (webhook/pool/): unset = from the container's CPU limit, at least 2.
  WEBHOOK_WORKERS: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
  ADMISSION_DEADLINE_MS: Type.Integer({ minimum: 50, maximum: 9_000, default: 2_000 }),
};

/** The server's limits from its keys; `problems` gets what Node would refuse. */
export function webhookServerLimits(e: Static<TObject<typeof WEBHOOK_ENV>>, problems: string[]): WebhookServerLimits {
  // Node refuses a headers timeout above the request timeout.
  if (e.WEBHOOK_HEADERS_TIMEOUT_SECONDS > e.WEBHOOK_REQUEST_TIMEOUT_SECONDS) problems.push(`WEBHOOK_HEADERS_TIMEOUT_SECONDS (${e.WEBHOOK_HEADERS_TIMEOUT_SECONDS}) must not exceed WEBHOOK_REQUEST_TIMEOUT_SECONDS (${e.WEBHOOK_REQUEST_TIMEOUT_SECONDS})`);
  return Object.freeze({
    requestTimeoutMs: e.WEBHOOK_REQUEST_TIMEOUT_SECONDS * 1000,
    headersTimeoutMs: e.WEBHOOK_HEADERS_TIMEOUT_SECONDS * 1000,
    connectionTimeoutMs: e.WEBHOOK_CONNECTION_TIMEOUT_SECONDS * 1000,
    keepAliveTimeoutMs: e.WEBHOOK_KEEPALIVE_TIMEOUT_SECONDS * 1000,
    maxConnections: e.WEBHOOK_MAX_CONNECTIONS,
    maxInFlightBodyBytes: e.WEBHOOK_MAX_INFLIGHT_BODY_MIB * MIB,
    // The shares are at most the whole (a smaller total keeps its meaning), and the reserve leaves big requests room
    // for one maximal review with its reply (10 MiB; the total is at least 7).
    maxInFlightBodyBytesPerSource: Math.min(e.WEBHOOK_MAX_INFLIGHT_BODY_MIB_PER_SOURCE, e.WEBHOOK_MAX_INFLIGHT_BODY_MIB) * MIB,
    smallRequestReserveBytes: Math.max(0, Math.min(e.WEBHOOK_SMALL_REQUEST_RESERVE_MIB, e.WEBHOOK_MAX_INFLIGHT_BODY_MIB - 10)) * MIB,
    maxInFlightConversionBytes: Math.min(e.WEBHOOK_MAX_INFLIGHT_CONVERSION_MIB, e.WEBHOOK_MAX_INFLIGHT_BODY_MIB) * MIB,
    replyWriteTimeoutMs: e.WEBHOOK_REPLY_WRITE_TIMEOUT_SECONDS * 1000,
    maxConnectionsPerSource: Math.min(e.WEBHOOK_MAX_CONNECTIONS_PER_SOURCE, e.WEBHOOK_MAX_CONNECTIONS),
  });
}
