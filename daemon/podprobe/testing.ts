// The NodePodProbe of the upstream unit tests (spec §6.6): pod-0 (1.1.1.1) and pod-1 (2.2.2.2) with `ppm-1#healthy`
// on `main`, pod-2 (3.3.3.3) with `ppm-1#tcpCheck`.
import type { NodePodProbe, PodProbe } from '../../shared/api/node-pod-probe.js';

export const healthyProbe = { exec: { command: ['/bin/sh', '-c', '/healthy.sh'] }, initialDelaySeconds: 10, timeoutSeconds: 3, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
export const tcpProbeSpec = { tcpSocket: { port: 8000 }, initialDelaySeconds: 10, timeoutSeconds: 3, periodSeconds: 10 };

export const podEntry = (i: number, probes: PodProbe['probes']): PodProbe =>
  ({ name: `pod-${i}`, namespace: 'default', uid: `pod-${i}-uid`, IP: `${i + 1}.${i + 1}.${i + 1}.${i + 1}`, probes });

export function demoNodePodProbe(): NodePodProbe {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodePodProbe', metadata: { name: 'node-1', resourceVersion: '1' },
    spec: {
      podProbes: [
        podEntry(0, [{ name: 'ppm-1#healthy', containerName: 'main', probe: healthyProbe }]),
        podEntry(1, [{ name: 'ppm-1#healthy', containerName: 'main', probe: healthyProbe }]),
        podEntry(2, [{ name: 'ppm-1#tcpCheck', containerName: 'main', probe: tcpProbeSpec }]),
      ],
    },
  };
}
