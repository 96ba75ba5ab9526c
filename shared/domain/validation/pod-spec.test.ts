import { describe } from 'node:test';
import { container, runRuleCases, withContainer } from './pod-spec-cases.js';

const dnsLabel =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric " +
  "character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('container rules (validateContainerCommon, validateContainers, validateInitContainers)', () => {
  runRuleCases([
    { name: 'a defaulted minimal container is valid', spec: withContainer({}), want: [] },
    { name: 'a container name is required', spec: withContainer({ name: '' }), want: ['spec.containers[0].name: Required value'] },
    { name: 'a container name is a DNS-1123 label', spec: withContainer({ name: 'App' }), want: [`spec.containers[0].name: Invalid value: "App": ${dnsLabel}`] },
    {
      name: 'a container name is at most 63 characters',
      spec: withContainer({ name: 'a'.repeat(64) }),
      want: [`spec.containers[0].name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`],
    },
    {
      name: 'regular container names are unique',
      spec: { containers: [container(), container()] },
      want: ['spec.containers[1].name: Duplicate value: "app"'],
    },
    {
      name: 'an init container may not reuse a regular container name (reported on the init container)',
      spec: { initContainers: [container()], containers: [container()] },
      want: ['spec.initContainers[0].name: Duplicate value: "app"'],
    },
    { name: 'an image is required', spec: withContainer({ image: '' }), want: ['spec.containers[0].image: Required value'] },
    {
      name: 'an image has no surrounding whitespace (reported after the spec rules)',
      spec: withContainer({ image: ' busybox', imagePullPolicy: 'Sometimes' }),
      want: [
        'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
        'spec.containers[0].image: Invalid value: " busybox": must not have leading or trailing whitespace',
      ],
    },
    { name: 'imagePullPolicy is required', spec: withContainer({ imagePullPolicy: '' }), want: ['spec.containers[0].imagePullPolicy: Required value'] },
    {
      name: 'imagePullPolicy is Always, IfNotPresent or Never',
      spec: withContainer({ imagePullPolicy: 'Sometimes' }),
      want: ['spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"'],
    },
    { name: 'terminationMessagePolicy is required', spec: withContainer({ terminationMessagePolicy: '' }), want: ['spec.containers[0].terminationMessagePolicy: Required value'] },
    {
      name: 'terminationMessagePolicy is File or FallbackToLogsOnError',
      spec: withContainer({ terminationMessagePolicy: 'Stdout' }),
      want: ['spec.containers[0].terminationMessagePolicy: Unsupported value: "Stdout": supported values: "File", "FallbackToLogsOnError"'],
    },
    {
      name: 'restartPolicy may not be set on a regular container',
      spec: withContainer({ restartPolicy: 'Always' }),
      want: ['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers'],
    },
    {
      name: 'an init container restartPolicy can only be Always',
      spec: { initContainers: [container({ name: 'init', restartPolicy: 'OnFailure' })], containers: [container()] },
      want: ['spec.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
    },
    {
      name: 'a plain init container may not have probes or lifecycle',
      spec: {
        initContainers: [
          container({
            name: 'init',
            lifecycle: { preStop: { exec: { command: ['x'] } } },
            livenessProbe: { exec: { command: ['x'] }, successThreshold: 1 },
            readinessProbe: { exec: { command: ['x'] } },
            startupProbe: { exec: { command: ['x'] }, successThreshold: 1 },
          }),
        ],
        containers: [container()],
      },
      want: [
        'spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always',
        'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
        'spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
        'spec.initContainers[0].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      ],
    },
    {
      name: 'a restartPolicy=Always init container (native sidecar) may have probes, and they are validated',
      spec: {
        initContainers: [container({ name: 'init', restartPolicy: 'Always', livenessProbe: { exec: { command: ['x'] }, successThreshold: 2 } })],
        containers: [container()],
      },
      want: ['spec.initContainers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1'],
    },
    {
      name: 'an init container may not set resizePolicy',
      spec: { initContainers: [container({ name: 'init', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] })], containers: [container()] },
      want: ['spec.initContainers[0].resizePolicy: Invalid value: [{"ResourceName":"cpu","RestartPolicy":"NotRequired"}]: must not be set for init containers'],
    },
    {
      name: 'resizePolicy names cpu or memory once, with a known restart policy',
      spec: withContainer({
        resizePolicy: [
          { resourceName: 'cpu', restartPolicy: 'NotRequired' },
          { resourceName: 'cpu', restartPolicy: 'Sometimes' },
          { resourceName: 'gpu', restartPolicy: '' },
        ],
      }),
      want: [
        'spec.containers[0].resizePolicy[1]: Duplicate value: "cpu"',
        'spec.containers[0].resizePolicy: Unsupported value: "Sometimes": supported values: "NotRequired", "RestartContainer"',
        'spec.containers[0].resizePolicy: Unsupported value: "gpu": supported values: "cpu", "memory"',
        'spec.containers[0].resizePolicy: Required value',
      ],
    },
  ]);
});
