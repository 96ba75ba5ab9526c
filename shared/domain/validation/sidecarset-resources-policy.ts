// SidecarSet validation of containers[].resourcesPolicy and initContainers[].resourcesPolicy as OpenKruise v1.9
// (spec/openkruise-v1.9.md §3.6). Paths are `spec[<i>]…` for both lists, as upstream writes them. Expressions are
// checked by evaluating them with only their own variable bound to the Number 1, as upstream does: so some
// expressions pass here and fail at pod creation (`cpu*2m`) and some fail here that would work there (`memory - 100Mi`).
import type { ResourceExpressions, SidecarContainer } from '../../api/sidecarset.js';
import type { Violation } from '../../errors.js';
import { evaluateExpression, ExpressionError, num } from '../resources-policy/expression.js';
import { compileGoRegexp } from '../resources-policy/go-regexp.js';

/** The problems of init container `i`'s policy: native sidecars only, then the common checks. */
export function validateInitContainerResourcesPolicy(c: SidecarContainer, i: number): Violation[] {
  if (!c.resourcesPolicy) return [];
  const field = `spec[${i}].resourcesPolicy`;
  const out: Violation[] = [];
  if (c.restartPolicy !== 'Always') {
    out.push({ field, type: 'Invalid value', value: c.resourcesPolicy, detail: 'resourcesPolicy is only supported for containers with RestartPolicy Always' });
  }
  return [...out, ...validateResourcesPolicy(c, field)];
}

/** The problems of container `i`'s policy. */
export function validateContainerResourcesPolicy(c: SidecarContainer, i: number): Violation[] {
  return c.resourcesPolicy ? validateResourcesPolicy(c, `spec[${i}].resourcesPolicy`) : [];
}

const nonEmpty = (list: Record<string, unknown> | undefined) => Object.keys(list ?? {}).length > 0;

function validateResourcesPolicy(c: SidecarContainer, field: string): Violation[] {
  const policy = c.resourcesPolicy!;
  if (nonEmpty(c.resources?.limits) || nonEmpty(c.resources?.requests)) {
    return [{ field, type: 'Invalid value', value: policy, detail: 'resourcesPolicy and resources cannot be configured together' }];
  }
  const out: Violation[] = [];
  const regex = policy.targetContainersNameRegex ?? '';
  if (regex === '') out.push({ field: `${field}.targetContainersNameRegex`, type: 'Required value', detail: 'invalid empty regex' });
  else {
    const compiled = compileGoRegexp(regex);
    if (!compiled.ok) out.push({ field: `${field}.targetContainersNameRegex`, type: 'Invalid value', value: regex, detail: `invalid regex pattern: ${compiled.error}` });
  }
  const expr = policy.resourcesExpr ?? {};
  if (expr.limits == null && expr.requests == null) {
    out.push({ field: `${field}.resourcesExpr`, type: 'Invalid value', value: expr, detail: 'at least one of limits or requests must be configured' });
    return out;
  }
  for (const kind of ['limits', 'requests'] as const) {
    const exprs: ResourceExpressions | null | undefined = expr[kind];
    if (exprs == null) continue;
    for (const variable of ['cpu', 'memory'] as const) {
      const e = exprs[variable];
      if (!e) continue;
      const problem = expressionProblem(e, variable);
      if (problem) out.push({ field: `${field}.resourcesExpr.${kind}.${variable}`, type: 'Invalid value', value: e, detail: `invalid expression: ${problem}` });
    }
  }
  return out;
}

function expressionProblem(expr: string, variable: 'cpu' | 'memory'): string | undefined {
  try {
    evaluateExpression(expr, new Map([[variable, num(1)]]));
    return undefined;
  } catch (err) {
    if (err instanceof ExpressionError) return err.message;
    throw err;
  }
}
