// One pino root logger per process, built by main.ts and passed down; logic never imports a logger singleton (style P11).
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(opts: { level: string; name: string }): Logger {
  return pino({
    name: opts.name,
    level: opts.level,
    // Defence in depth: even if someone logs a Secret or a cert bundle by mistake, its payload never reaches the sink.
    // A top-level `key` is the reconcile key the runner binds, so only nested `.key` fields are redacted.
    redact: { paths: ['data', '*.data', 'stringData', '*.stringData', '*.key', 'caKey', '*.caKey'], censor: '[redacted]' },
  });
}

/** A logger that drops everything, for tests and benchmarks. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
