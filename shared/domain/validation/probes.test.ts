import { describe } from 'node:test';
import { runRuleCases, withContainer } from './pod-spec-cases.js';

const p = 'spec.containers[0]';
const exec = { exec: { command: ['true'] } };

describe('probe rules (validateProbe, liveness/readiness/startup)', () => {
  runRuleCases([
    { name: 'a defaulted liveness probe is valid', spec: withContainer({ livenessProbe: { ...exec, successThreshold: 1, periodSeconds: 10 } }), want: [] },
    { name: 'a probe needs a handler', spec: withContainer({ readinessProbe: { periodSeconds: 10 } }), want: [`${p}.readinessProbe: Required value: must specify a handler type`] },
    {
      name: 'a probe has one handler; later ones are forbidden at their own path',
      spec: withContainer({ readinessProbe: { ...exec, tcpSocket: { port: 80 }, grpc: { port: 9000 } } }),
      want: [`${p}.readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type`, `${p}.readinessProbe.grpc: Forbidden: may not specify more than 1 handler type`],
    },
    { name: 'liveness successThreshold must be 1', spec: withContainer({ livenessProbe: { ...exec, successThreshold: 3 } }), want: [`${p}.livenessProbe.successThreshold: Invalid value: 3: must be 1`] },
    { name: 'startup successThreshold must be 1', spec: withContainer({ startupProbe: { ...exec } }), want: [`${p}.startupProbe.successThreshold: Invalid value: 0: must be 1`] },
    { name: 'readiness successThreshold may exceed 1', spec: withContainer({ readinessProbe: { ...exec, successThreshold: 3 } }), want: [] },
    {
      name: 'probe thresholds and periods are non-negative',
      spec: withContainer({ readinessProbe: { ...exec, initialDelaySeconds: -1, timeoutSeconds: -2, periodSeconds: -3, successThreshold: -4, failureThreshold: -5 } }),
      want: [
        `${p}.readinessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0`,
        `${p}.readinessProbe.timeoutSeconds: Invalid value: -2: must be greater than or equal to 0`,
        `${p}.readinessProbe.periodSeconds: Invalid value: -3: must be greater than or equal to 0`,
        `${p}.readinessProbe.successThreshold: Invalid value: -4: must be greater than or equal to 0`,
        `${p}.readinessProbe.failureThreshold: Invalid value: -5: must be greater than or equal to 0`,
      ],
    },
    {
      name: 'a probe terminationGracePeriodSeconds is positive',
      spec: withContainer({ livenessProbe: { ...exec, successThreshold: 1, terminationGracePeriodSeconds: 0 } }),
      want: [`${p}.livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0`],
    },
    {
      name: 'a readiness probe may not set terminationGracePeriodSeconds',
      spec: withContainer({ readinessProbe: { ...exec, terminationGracePeriodSeconds: 5 } }),
      want: [`${p}.readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes`],
    },
    { name: 'exec needs a command', spec: withContainer({ readinessProbe: { exec: { command: [] } } }), want: [`${p}.readinessProbe.exec.command: Required value`] },
    {
      name: 'httpGet needs a path, a valid port and scheme, and valid header names',
      spec: withContainer({ readinessProbe: { httpGet: { port: 'HTTP', scheme: 'FTP', httpHeaders: [{ name: 'X_Bad', value: 'v' }] } } }),
      want: [
        `${p}.readinessProbe.httpGet.path: Required value`,
        `${p}.readinessProbe.httpGet.port: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
        `${p}.readinessProbe.httpGet.port: Invalid value: "HTTP": must contain at least one letter (a-z)`,
        `${p}.readinessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"`,
        `${p}.readinessProbe.httpGet.httpHeaders: Invalid value: "X_Bad": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
      ],
    },
    { name: 'tcpSocket port is in 1..65535', spec: withContainer({ readinessProbe: { tcpSocket: { port: 0 } } }), want: [`${p}.readinessProbe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive`] },
    { name: 'grpc port is in 1..65535', spec: withContainer({ readinessProbe: { grpc: { port: 70000 } } }), want: [`${p}.readinessProbe.grpc.port: Invalid value: 70000: must be between 1 and 65535, inclusive`] },
  ]);
});

describe('lifecycle rules (validateLifecycle, validateHandler, validateSleepAction)', () => {
  runRuleCases([
    { name: 'a preStop exec hook is valid', spec: withContainer({ lifecycle: { preStop: exec } }), want: [] },
    { name: 'a hook needs a handler', spec: withContainer({ lifecycle: { postStart: {} } }), want: [`${p}.lifecycle.postStart: Required value: must specify a handler type`] },
    {
      name: 'a hook has one handler',
      spec: withContainer({ lifecycle: { preStop: { ...exec, sleep: { seconds: 1 } } } }),
      want: [`${p}.lifecycle.preStop.sleep: Forbidden: may not specify more than 1 handler type`],
    },
    {
      name: 'a sleep lasts 1..terminationGracePeriodSeconds (30 in the fake pod)',
      spec: withContainer({ lifecycle: { preStop: { sleep: { seconds: 31 } } } }),
      want: [
        `${p}.lifecycle.preStop.sleep: Invalid value: 31: must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`,
      ],
    },
    {
      name: 'a zero sleep is refused (AllowPodLifecycleSleepActionZeroValue is off)',
      spec: withContainer({ lifecycle: { postStart: { sleep: { seconds: 0 } } } }),
      want: [
        `${p}.lifecycle.postStart.sleep: Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`,
      ],
    },
  ]);
});
