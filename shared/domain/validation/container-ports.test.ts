import { describe } from 'node:test';
import { container, runRuleCases, withContainer } from './pod-spec-cases.js';

const p = 'spec.containers[0].ports';
const ports = (...list: object[]) => withContainer({ ports: list });

describe('port rules (validateContainerPorts, host-port conflicts)', () => {
  runRuleCases([
    { name: 'a named TCP port is valid', spec: ports({ name: 'http', containerPort: 80, protocol: 'TCP' }), want: [] },
    { name: 'containerPort is required', spec: ports({ protocol: 'TCP' }), want: [`${p}[0].containerPort: Required value`] },
    { name: 'containerPort is in 1..65535', spec: ports({ containerPort: 70000, protocol: 'TCP' }), want: [`${p}[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive`] },
    { name: 'hostPort is in 1..65535', spec: ports({ containerPort: 80, hostPort: -1, protocol: 'TCP' }), want: [`${p}[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive`] },
    { name: 'protocol is required', spec: ports({ containerPort: 80 }), want: [`${p}[0].protocol: Required value`] },
    {
      name: 'protocol is SCTP, TCP or UDP',
      spec: ports({ containerPort: 80, protocol: 'HTTP' }),
      want: [`${p}[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`],
    },
    {
      name: 'a port name is an IANA service name',
      spec: ports({ name: 'Http--', containerPort: 80, protocol: 'TCP' }),
      want: [
        `${p}[0].name: Invalid value: "Http--": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
        `${p}[0].name: Invalid value: "Http--": must not contain consecutive hyphens`,
        `${p}[0].name: Invalid value: "Http--": must not begin or end with a hyphen`,
      ],
    },
    {
      name: 'a port name has at most 15 characters and a letter',
      spec: ports({ name: '1234567890123456', containerPort: 80, protocol: 'TCP' }),
      want: [`${p}[0].name: Invalid value: "1234567890123456": must be no more than 15 characters`, `${p}[0].name: Invalid value: "1234567890123456": must contain at least one letter (a-z)`],
    },
    {
      name: 'port names are unique within a container',
      spec: ports({ name: 'web', containerPort: 80, protocol: 'TCP' }, { name: 'web', containerPort: 81, protocol: 'TCP' }),
      want: [`${p}[1].name: Duplicate value: "web"`],
    },
    {
      name: 'host ports are unique across regular containers (protocol/hostIP/port)',
      spec: {
        containers: [
          container({ ports: [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }] }),
          container({ name: 'b', ports: [{ containerPort: 81, hostPort: 8080, protocol: 'TCP' }, { containerPort: 82, hostPort: 8080, protocol: 'UDP' }] }),
        ],
      },
      want: ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"'],
    },
    {
      name: 'an init container checks host ports on its own (and reports them at index 0, as upstream does)',
      spec: {
        initContainers: [
          container({ name: 'i0', ports: [{ containerPort: 80, hostPort: 9090, protocol: 'TCP' }] }),
          container({ name: 'i1', ports: [{ containerPort: 80, hostPort: 9090, protocol: 'TCP' }, { containerPort: 81, hostPort: 9090, protocol: 'TCP' }] }),
        ],
        containers: [container({ ports: [{ containerPort: 80, hostPort: 9090, protocol: 'TCP' }] })],
      },
      want: ['spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//9090"'],
    },
  ]);
});
