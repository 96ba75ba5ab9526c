// The exec handler (spec §6.4): the command runs inside the container through CRI ExecSync, in the container's
// own namespaces, with the runtime enforcing the timeout. No $(VAR) expansion (the kubelet's job, not the daemon's).
import { isCriError } from '../cri/errors.js';
import type { RuntimeService } from '../cri/runtime.js';
import { goSeconds } from './go-text.js';
import type { HandlerResult } from './handler-result.js';

/** Kubernetes' exec prober reads at most this much of the output. */
export const MAX_EXEC_OUTPUT = 10 * 1024;

const text = (b: Buffer): string => b.subarray(0, MAX_EXEC_OUTPUT).toString('utf8');

/**
 * Exit 0 → success with stdout; another exit code → failure with stderr only; the runtime's or the RPC's deadline
 * → failure `command timed out: "<argv>" timed out after <T>` (Kubernetes' ExecProbeTimeout, on by default).
 * Any other CRI error (container gone or not running) is thrown: nothing is published for it.
 */
export async function execProbe(runtime: RuntimeService, containerId: string, command: string[], timeoutSeconds: number): Promise<HandlerResult> {
  try {
    // execSync's RPC deadline is the timeout plus a margin (grpc-runtime.ts), so a hung runtime cannot hold the worker.
    const r = await runtime.execSync(containerId, command, timeoutSeconds);
    return r.exitCode === 0 ? { result: 'success', message: text(r.stdout) } : { result: 'failure', message: text(r.stderr) };
  } catch (err) {
    if (isCriError(err, 'deadline-exceeded')) {
      return { result: 'failure', message: `command timed out: ${JSON.stringify(command.join(' '))} timed out after ${goSeconds(timeoutSeconds)}` };
    }
    throw err;
  }
}
