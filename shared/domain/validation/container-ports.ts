// A container's `ports` (k8s core validation validateContainerPorts) and host-port uniqueness
// (AccumulateUniqueHostPorts): regular containers share one host-port space, each init container has its own.
import type { Violation } from '../../errors.js';
import { duplicate, inclusiveRangeError, invalid, invalidEach, list, notSupported, num, obj, required, str } from './field-errors.js';
import { isValidPortName } from './names.js';

const protocols = ['SCTP', 'TCP', 'UDP'];
const validPort = (p: number): boolean => p >= 1 && p <= 65535;
const portRange = inclusiveRangeError(1, 65535);

export function validateContainerPorts(ports: unknown, f: string): Violation[] {
  const out: Violation[] = [];
  const names = new Set<string>();
  list(ports).forEach((raw, i) => {
    const p = obj(raw) ?? {};
    const idx = `${f}[${i}]`;
    const name = str(p.name);
    if (name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) out.push(...invalidEach(`${idx}.name`, name, msgs));
      else if (names.has(name)) out.push(duplicate(`${idx}.name`, name));
      else names.add(name);
    }
    const containerPort = num(p.containerPort);
    if (containerPort === 0) out.push(required(`${idx}.containerPort`));
    else if (!validPort(containerPort)) out.push(invalid(`${idx}.containerPort`, containerPort, portRange));
    const hostPort = num(p.hostPort);
    if (hostPort !== 0 && !validPort(hostPort)) out.push(invalid(`${idx}.hostPort`, hostPort, portRange));
    const protocol = str(p.protocol);
    if (protocol === '') out.push(required(`${idx}.protocol`));
    else if (!protocols.includes(protocol)) out.push(notSupported(`${idx}.protocol`, protocol, protocols));
  });
  return out;
}

/**
 * Duplicate `protocol/hostIP/hostPort` triples across `containers`, reported at `<f>[i].ports[j].hostPort`. `f` is
 * the list's path; an init container is checked alone by passing a one-element list (its errors then say `[0]`,
 * exactly as upstream's do).
 */
export function checkHostPortConflicts(containers: readonly unknown[], f: string): Violation[] {
  const out: Violation[] = [];
  const seen = new Set<string>();
  containers.forEach((rawC, ci) => {
    list(obj(rawC)?.ports).forEach((raw, pi) => {
      const p = obj(raw) ?? {};
      const hostPort = num(p.hostPort);
      if (hostPort === 0) return;
      const key = `${str(p.protocol)}/${str(p.hostIP)}/${hostPort}`;
      if (seen.has(key)) out.push(duplicate(`${f}[${ci}].ports[${pi}].hostPort`, key));
      else seen.add(key);
    });
  });
  return out;
}
