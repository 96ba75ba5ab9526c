// What a probe handler reports when it ran (Kubernetes probe.Result + output). A handler that could not run at
// all (bad spec, container gone, runtime error) throws instead: upstream logs that and publishes nothing.
export interface HandlerResult {
  /** `warning` is Kubernetes' "Probe terminated redirects": counted as success. */
  result: 'success' | 'warning' | 'failure';
  message: string;
}

export type HandlerKind = 'exec' | 'httpGet' | 'tcpSocket';
