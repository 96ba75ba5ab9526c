// What upstream's ResourceDistribution controller puts in `kruise.io/resourcedistribution.resource.hashcode`: the
// SHA-256 of the raw `spec.resource` bytes as the apiserver serves them (a RawExtension keeps its bytes). Computed
// here from the wire, independently of the controller's own re-encoding (controller/resourcedistribution/resource-hash.ts).
import { createHash } from 'node:crypto';
import { kubectlOk } from './kube.js';

/** The bytes of `"spec":{"resource":<value>` exactly as the apiserver sent them (keys are sorted, resource first). */
export function rawResource(json: string): string {
  const start = json.indexOf('"spec":{"resource":') + '"spec":{"resource":'.length;
  let depth = 0;
  let inString = false;
  for (let i = start; i < json.length; i++) {
    const ch = json[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if ((ch === '}' || ch === ']') && --depth === 0) return json.slice(start, i + 1);
  }
  throw new Error('no spec.resource in the response');
}

export const upstreamHash = (name = 'sample') =>
  createHash('sha256').update(rawResource(kubectlOk(['get', '--raw', `/apis/apps.kruise.io/v1alpha1/resourcedistributions/${name}`])), 'utf8').digest('hex');
