import { describe } from 'node:test';
import { runRuleCases, withContainer } from './pod-spec-cases.js';

const p = 'spec.containers[0].resources';
const res = (resources: object) => withContainer({ resources });

describe('resource rules (validateResourceRequirements)', () => {
  runRuleCases([
    { name: 'equal request and limit in different units are fine', spec: res({ requests: { memory: '1Gi' }, limits: { memory: '1024Mi' } }), want: [] },
    { name: 'a request above its limit is refused', spec: res({ requests: { cpu: '2' }, limits: { cpu: '1500m' } }), want: [`${p}.requests: Invalid value: "2": must be less than or equal to cpu limit of 1500m`] },
    { name: 'a quantity is non-negative', spec: res({ limits: { cpu: '-1' } }), want: [`${p}.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`] },
    {
      name: 'an unqualified resource name must be a standard container resource',
      spec: res({ limits: { gpu: '1' } }),
      want: [`${p}.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`, `${p}.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers`],
    },
    { name: 'a quota-only resource is not a container resource', spec: res({ limits: { pods: '1' } }), want: [`${p}.limits[pods]: Invalid value: "pods": must be a standard resource for containers`] },
    {
      name: 'an extended resource needs a limit',
      spec: res({ requests: { 'example.com/gpu': '1' } }),
      want: [`${p}.limits: Required value: Limit must be set for non overcommitable resources`],
    },
    {
      name: 'an extended resource request equals its limit',
      spec: res({ requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } }),
      want: [`${p}.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2`],
    },
    {
      name: 'an extended resource is a whole number',
      spec: res({ requests: { 'example.com/gpu': '500m' }, limits: { 'example.com/gpu': '500m' } }),
      want: [`${p}.limits[example.com/gpu]: Invalid value: "500m": must be an integer`, `${p}.requests[example.com/gpu]: Invalid value: "500m": must be an integer`],
    },
    { name: 'a matching extended request and limit are fine', spec: res({ requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } }), want: [] },
    {
      name: 'a kubernetes.io-prefixed name counts as native and is accepted',
      spec: res({ limits: { 'kubernetes.io/foo': '1' } }),
      want: [],
    },
    { name: 'hugepages need cpu or memory', spec: res({ limits: { 'hugepages-2Mi': '2Mi' } }), want: [`${p}: Forbidden: HugePages require cpu or memory`] },
    {
      name: 'a hugepages request equals its limit',
      spec: res({ requests: { 'hugepages-2Mi': '2Mi', memory: '1Gi' }, limits: { 'hugepages-2Mi': '4Mi', memory: '1Gi' } }),
      want: [`${p}.requests: Invalid value: "2Mi": must be equal to hugepages-2Mi limit of 4Mi`],
    },
    {
      name: 'hugepages values need not be page multiples (kruise allows indivisible values)',
      spec: res({ requests: { 'hugepages-2Mi': '3Mi', memory: '1Gi' }, limits: { 'hugepages-2Mi': '3Mi', memory: '1Gi' } }),
      want: [],
    },
    {
      name: 'a resource claim must name a pod claim (the fake pod has none)',
      spec: res({ claims: [{ name: 'gpu' }, { name: 'gpu' }, { name: '' }] }),
      want: [
        `${p}.claims[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty`,
        `${p}.claims[1]: Duplicate value: "gpu"`,
        `${p}.claims[1]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty`,
        `${p}.claims[2]: Required value`,
      ],
    },
  ]);
});
