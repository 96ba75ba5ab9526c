// Fastify's per-request log lines off (each server logs at its own boundary instead, style P11), in the form Fastify
// 5.12 asks for: its top-level `disableRequestLogging` is deprecated (FSTDEP023) in favour of a LogController.
import { LogController } from 'fastify';

export const quietRequests = () => ({ logController: new LogController({ disableRequestLogging: true }) });
