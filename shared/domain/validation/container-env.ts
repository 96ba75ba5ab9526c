// A container's `env` and `envFrom` (k8s core validation ValidateEnv, validateEnvVarValueFrom, ValidateEnvFrom), with
// the strict variable-name rule: OpenKruise validates with AllowRelaxedEnvironmentVariableValidation off.
import type { Violation } from '../../errors.js';
import { invalid, invalidEach, isSet, list, obj, required, str, type Json } from './field-errors.js';
import { envFieldPaths, validateObjectFieldSelector, validateResourceFieldSelector } from './field-selectors.js';
import { isConfigMapKey, isEnvVarName, nameIsDNSSubdomain } from './names.js';

export function validateEnv(vars: unknown, f: string): Violation[] {
  const out: Violation[] = [];
  list(vars).forEach((raw, i) => {
    const ev = obj(raw) ?? {};
    const idx = `${f}[${i}]`;
    const name = str(ev.name);
    if (name === '') out.push(required(`${idx}.name`));
    else out.push(...invalidEach(`${idx}.name`, name, isEnvVarName(name)));
    out.push(...validateValueFrom(ev, `${idx}.valueFrom`));
  });
  return out;
}

function validateValueFrom(ev: Json, f: string): Violation[] {
  const from = obj(ev.valueFrom);
  if (!from) return [];
  const out: Violation[] = [];
  let sources = 0;
  if (isSet(from.fieldRef)) {
    sources++;
    out.push(...validateObjectFieldSelector(obj(from.fieldRef) ?? {}, envFieldPaths, `${f}.fieldRef`));
  }
  if (isSet(from.resourceFieldRef)) {
    sources++;
    out.push(...validateResourceFieldSelector(obj(from.resourceFieldRef) ?? {}, `${f}.resourceFieldRef`, false));
  }
  if (isSet(from.configMapKeyRef)) {
    sources++;
    out.push(...validateKeySelector(obj(from.configMapKeyRef) ?? {}, `${f}.configMapKeyRef`));
  }
  if (isSet(from.secretKeyRef)) {
    sources++;
    out.push(...validateKeySelector(obj(from.secretKeyRef) ?? {}, `${f}.secretKeyRef`));
  }
  if (sources === 0) out.push(invalid(f, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (str(ev.value) !== '') out.push(invalid(f, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) out.push(invalid(f, '', 'may not have more than one field specified at a time'));
  return out;
}

/** configMapKeyRef and secretKeyRef: both names are checked as Secret names (DNS subdomain), as upstream does. */
function validateKeySelector(s: Json, f: string): Violation[] {
  const name = str(s.name);
  const key = str(s.key);
  const out = invalidEach(`${f}.name`, name, nameIsDNSSubdomain(name, false));
  if (key === '') out.push(required(`${f}.key`));
  else out.push(...invalidEach(`${f}.key`, key, isConfigMapKey(key)));
  return out;
}

export function validateEnvFrom(sources: unknown, f: string): Violation[] {
  const out: Violation[] = [];
  list(sources).forEach((raw, i) => {
    const ev = obj(raw) ?? {};
    const idx = `${f}[${i}]`;
    const prefix = str(ev.prefix);
    if (prefix !== '') out.push(...invalidEach(`${idx}.prefix`, prefix, isEnvVarName(prefix)));
    let count = 0;
    for (const kind of ['configMapRef', 'secretRef'] as const) {
      if (!isSet(ev[kind])) continue;
      count++;
      const name = str(obj(ev[kind])?.name);
      if (name === '') out.push(required(`${idx}.${kind}.name`));
      else out.push(...invalidEach(`${idx}.${kind}.name`, name, nameIsDNSSubdomain(name, true)));
    }
    // Upstream reports these two at the list's path, not the item's.
    if (count === 0) out.push(invalid(f, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) out.push(invalid(f, '', 'may not have more than one field specified at a time'));
  });
  return out;
}
