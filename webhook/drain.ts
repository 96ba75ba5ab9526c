// Graceful shutdown of the admission server (review M5). Endpoint removal and kube-proxy (and the apiserver's own
// connections, which conntrack keeps pinned to this pod) go on routing reviews here for a few seconds after SIGTERM;
// closing at once turned each of those into connection-refused, a failed pod create under failurePolicy: Fail.
// Sequence: report not-ready at once, keep serving for the drain period while every answer asks the client to close
// its connection (so the apiserver reconnects, through the Service, to another replica), then stop accepting and let
// in-flight reviews finish, within a bound.

/** Read by readiness (fails while draining) and by the admission app (answers carry `Connection: close`). */
export interface DrainState {
  readonly draining: boolean;
}

export interface DrainDeps {
  state: { draining: boolean };
  /** Serving goes on this long after readiness fails. */
  drainMs: number;
  /** After the drain, in-flight requests get this long to finish. */
  graceMs: number;
  /** Stops accepting, waits for in-flight requests (Fastify's close), stops the caches and timers. */
  close: () => Promise<unknown>;
  /** Injected so tests need not sleep (style P14). */
  delay: (ms: number) => Promise<void>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export type DrainOutcome = 'closed' | 'forced';

/**
 * Runs the shutdown sequence; resolves 'closed' when close() finished within the grace period, 'forced' when it did
 * not (or failed): the caller then exits anyway, with a failure code.
 */
export async function drainThenClose(d: DrainDeps): Promise<DrainOutcome> {
  d.state.draining = true;
  d.log.info({ drainMs: d.drainMs }, 'draining: readiness fails, still serving');
  await d.delay(d.drainMs);
  d.log.info({ graceMs: d.graceMs }, 'closing: no new connections, finishing in-flight requests');
  const closed = d.close().then(
    () => 'closed' as const,
    (err: unknown) => {
      d.log.warn({ err }, 'close failed');
      return 'forced' as const;
    },
  );
  const forced = d.delay(d.graceMs).then(() => 'forced' as const);
  const outcome = await Promise.race([closed, forced]);
  if (outcome === 'forced') d.log.warn({ graceMs: d.graceMs }, 'in-flight requests did not finish in time; exiting anyway');
  return outcome;
}
