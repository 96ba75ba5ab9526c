// Probes and lifecycle hooks (k8s core validation validateProbe, validateLivenessProbe/Readiness/Startup,
// validateHandler, validateLifecycle). `gracePeriod` is the pod's terminationGracePeriodSeconds (30 in kruise's fake pod).
import type { Violation } from '../../errors.js';
import { forbidden, inclusiveRangeError, invalid, invalidEach, isSet, list, notSupported, num, obj, required, str, type Json } from './field-errors.js';
import { isHTTPHeaderName, isValidPortName } from './names.js';

const probeHandlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const lifecycleHandlers = ['exec', 'httpGet', 'tcpSocket', 'sleep'] as const;
const nonNegative = 'must be greater than or equal to 0';

export function validateLivenessOrStartupProbe(probe: unknown, gracePeriod: number | undefined, f: string): Violation[] {
  const p = obj(probe);
  if (!p) return [];
  const out = validateProbe(p, gracePeriod, f);
  if (num(p.successThreshold) !== 1) out.push(invalid(`${f}.successThreshold`, num(p.successThreshold), 'must be 1'));
  return out;
}

export function validateReadinessProbe(probe: unknown, gracePeriod: number | undefined, f: string): Violation[] {
  const p = obj(probe);
  if (!p) return [];
  const out = validateProbe(p, gracePeriod, f);
  if (isSet(p.terminationGracePeriodSeconds)) {
    out.push(invalid(`${f}.terminationGracePeriodSeconds`, p.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
  return out;
}

function validateProbe(p: Json, gracePeriod: number | undefined, f: string): Violation[] {
  const out = validateHandler(p, probeHandlers, gracePeriod, f);
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    if (num(p[k]) < 0) out.push(invalid(`${f}.${k}`, num(p[k]), nonNegative));
  }
  if (isSet(p.terminationGracePeriodSeconds) && num(p.terminationGracePeriodSeconds) <= 0) {
    out.push(invalid(`${f}.terminationGracePeriodSeconds`, num(p.terminationGracePeriodSeconds), 'must be greater than 0'));
  }
  return out;
}

export function validateLifecycle(lifecycle: Json, gracePeriod: number | undefined, f: string): Violation[] {
  const out: Violation[] = [];
  for (const hook of ['postStart', 'preStop'] as const) {
    const h = obj(lifecycle[hook]);
    if (h) out.push(...validateHandler(h, lifecycleHandlers, gracePeriod, `${f}.${hook}`));
  }
  return out;
}

/** Exactly one handler: the first set one is validated, every later one is Forbidden at its own path. */
function validateHandler(h: Json, kinds: readonly string[], gracePeriod: number | undefined, f: string): Violation[] {
  const out: Violation[] = [];
  let count = 0;
  for (const kind of kinds) {
    if (!isSet(h[kind])) continue;
    if (count > 0) {
      out.push(forbidden(`${f}.${kind}`, 'may not specify more than 1 handler type'));
      continue;
    }
    count++;
    out.push(...validateAction(kind, obj(h[kind]) ?? {}, gracePeriod, `${f}.${kind}`));
  }
  if (count === 0) out.push(required(f, 'must specify a handler type'));
  return out;
}

function validateAction(kind: string, a: Json, gracePeriod: number | undefined, f: string): Violation[] {
  switch (kind) {
    case 'exec':
      return list(a.command).length === 0 ? [required(`${f}.command`)] : [];
    case 'httpGet':
      return validateHTTPGet(a, f);
    case 'tcpSocket':
      return validatePortNumOrName(a.port, `${f}.port`);
    case 'grpc':
      return validatePortNumOrName(num(a.port), `${f}.port`);
    default: {
      const seconds = num(a.seconds);
      // No grace period: the pod's own error says so; the sleep is not judged against it.
      if (gracePeriod === undefined || (seconds > 0 && seconds <= gracePeriod)) return [];
      const detail = `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`;
      return [invalid(f, seconds, detail)];
    }
  }
}

const schemes = ['HTTP', 'HTTPS'];

function validateHTTPGet(a: Json, f: string): Violation[] {
  const out: Violation[] = [];
  if (str(a.path) === '') out.push(required(`${f}.path`));
  out.push(...validatePortNumOrName(a.port, `${f}.port`));
  const scheme = str(a.scheme);
  if (!schemes.includes(scheme)) out.push(notSupported(`${f}.scheme`, scheme, schemes));
  for (const header of list(a.httpHeaders)) {
    const name = str(obj(header)?.name);
    out.push(...invalidEach(`${f}.httpHeaders`, name, isHTTPHeaderName(name)));
  }
  return out;
}

/** An IntOrString port: a number must be a valid port, a string a valid IANA service name. */
export function validatePortNumOrName(port: unknown, f: string): Violation[] {
  if (typeof port === 'string') return invalidEach(f, port, isValidPortName(port));
  const n = num(port);
  return n >= 1 && n <= 65535 ? [] : [invalid(f, n, inclusiveRangeError(1, 65535))];
}
