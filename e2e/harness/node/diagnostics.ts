// For failure messages of tests on the real node: the last log lines of the pods a selector picks there, e.g. the
// daemon pod's RBAC or CRI errors, which its health check only summarises.
import { kubectl } from '../kube.js';

export function podLogsOnNode(node: string, namespace: string, selector: string, lines = 8): string {
  const pods = kubectl(['get', 'pods', '-n', namespace, '-l', selector, '--field-selector', `spec.nodeName=${node}`, '-o', 'name']).stdout.split('\n').filter(Boolean);
  return pods.map((p) => {
    const r = kubectl(['logs', '-n', namespace, p, '--all-containers', `--tail=${lines}`]);
    return `--- ${p} ---\n${(r.stdout || r.stderr).split('\n').map((l) => l.slice(0, 400)).join('\n')}`;
  }).join('\n') || `(no pod ${selector} on ${node})`;
}
