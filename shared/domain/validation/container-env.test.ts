import { describe } from 'node:test';
import { runRuleCases, withContainer } from './pod-spec-cases.js';

const envName =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit " +
  "(e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
const subdomain =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an " +
  "alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const configKey =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', " +
  "regex used for validation is '[-._a-zA-Z0-9]+')";
const env = (...vars: object[]) => withContainer({ env: vars });
const p = 'spec.containers[0].env[0]';

describe('env rules (ValidateEnv, validateEnvVarValueFrom)', () => {
  runRuleCases([
    { name: 'an env var with a value is valid', spec: env({ name: 'A', value: 'b' }), want: [] },
    { name: 'an env name is required', spec: env({ name: '', value: 'b' }), want: [`${p}.name: Required value`] },
    { name: 'an env name may not start with a digit', spec: env({ name: '1X' }), want: [`${p}.name: Invalid value: "1X": ${envName}`] },
    { name: "an env name may not be '..'-prefixed", spec: env({ name: '..a' }), want: [`${p}.name: Invalid value: "..a": must not start with '..'`] },
    {
      name: 'value and valueFrom are exclusive',
      spec: env({ name: 'A', value: 'x', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }),
      want: [`${p}.valueFrom: Invalid value: "": may not be specified when \`value\` is not empty`],
    },
    {
      name: 'valueFrom names exactly one source (none)',
      spec: env({ name: 'A', valueFrom: {} }),
      want: [`${p}.valueFrom: Invalid value: "": must specify one of: \`fieldRef\`, \`resourceFieldRef\`, \`configMapKeyRef\` or \`secretKeyRef\``],
    },
    {
      name: 'valueFrom names exactly one source (two)',
      spec: env({ name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } }),
      want: [`${p}.valueFrom: Invalid value: "": may not have more than one field specified at a time`],
    },
    { name: 'fieldRef needs an apiVersion', spec: env({ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }), want: [`${p}.valueFrom.fieldRef.apiVersion: Required value`] },
    { name: 'fieldRef needs a fieldPath', spec: env({ name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1' } } }), want: [`${p}.valueFrom.fieldRef.fieldPath: Required value`] },
    {
      name: 'fieldRef apiVersion must be v1',
      spec: env({ name: 'A', valueFrom: { fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } } }),
      want: [`${p}.valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2`],
    },
    {
      name: 'fieldRef fieldPath must be a known pod field',
      spec: env({ name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.containers' } } }),
      want: [`${p}.valueFrom.fieldRef.fieldPath: Invalid value: "spec.containers": error converting fieldPath: field label not supported: spec.containers`],
    },
    {
      name: 'fieldRef fieldPath must be one env supports (status.phase is a pod field but not an env source)',
      spec: env({ name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.phase' } } }),
      want: [
        `${p}.valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", ` +
          '"spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
      ],
    },
    {
      name: 'fieldRef subscripts are only for labels and annotations',
      spec: env({ name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "spec.nodeName['x']" } } }),
      want: [`${p}.valueFrom.fieldRef.fieldPath: Invalid value: "spec.nodeName['x']": error converting fieldPath: field label does not support subscript: spec.nodeName['x']`],
    },
    {
      name: 'a fieldRef label key must be a qualified name',
      spec: env({ name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['-x']" } } }),
      want: [
        `${p}.valueFrom.fieldRef: Invalid value: "-x": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an ` +
          "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    },
    { name: 'resourceFieldRef needs a resource', spec: env({ name: 'A', valueFrom: { resourceFieldRef: {} } }), want: [`${p}.valueFrom.resourceFieldRef.resource: Required value`] },
    {
      name: 'resourceFieldRef resource must be a supported one',
      spec: env({ name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } }),
      want: [
        `${p}.valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", ` +
          '"limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
      ],
    },
    { name: 'resourceFieldRef accepts hugepages resources', spec: env({ name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.hugepages-2Mi' } } }), want: [] },
    {
      name: 'a cpu divisor is 1m or 1',
      spec: env({ name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '10m' } } }),
      want: [`${p}.valueFrom.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource`],
    },
    {
      name: 'a memory divisor is a unit',
      spec: env({ name: 'A', valueFrom: { resourceFieldRef: { resource: 'requests.memory', divisor: '3' } } }),
      want: [
        `${p}.valueFrom.resourceFieldRef.divisor: Invalid value: "requests.memory": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource`,
      ],
    },
    { name: 'a memory divisor written in another unit is accepted', spec: env({ name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1024Ki' } } }), want: [] },
    {
      name: 'configMapKeyRef needs a valid name and key',
      spec: env({ name: 'A', valueFrom: { configMapKeyRef: { name: 'Bad_Name', key: '' } } }),
      want: [`${p}.valueFrom.configMapKeyRef.name: Invalid value: "Bad_Name": ${subdomain}`, `${p}.valueFrom.configMapKeyRef.key: Required value`],
    },
    {
      name: 'secretKeyRef key is a config key',
      spec: env({ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'a/b' } } }),
      want: [`${p}.valueFrom.secretKeyRef.key: Invalid value: "a/b": ${configKey}`],
    },
  ]);
});

describe('envFrom rules (ValidateEnvFrom)', () => {
  const q = 'spec.containers[0].envFrom';
  runRuleCases([
    { name: 'a configMapRef with a prefix is valid', spec: withContainer({ envFrom: [{ prefix: 'P_', configMapRef: { name: 'cm' } }] }), want: [] },
    { name: 'the prefix is an env var name', spec: withContainer({ envFrom: [{ prefix: '1P', configMapRef: { name: 'cm' } }] }), want: [`${q}[0].prefix: Invalid value: "1P": ${envName}`] },
    {
      name: 'exactly one source is named (none; reported at the list path)',
      spec: withContainer({ envFrom: [{ prefix: 'P' }] }),
      want: [`${q}: Invalid value: "": must specify one of: \`configMapRef\` or \`secretRef\``],
    },
    {
      name: 'exactly one source is named (two)',
      spec: withContainer({ envFrom: [{ configMapRef: { name: 'a' }, secretRef: { name: 'b' } }] }),
      want: [`${q}: Invalid value: "": may not have more than one field specified at a time`],
    },
    { name: 'a source name is required', spec: withContainer({ envFrom: [{ secretRef: {} }] }), want: [`${q}[0].secretRef.name: Required value`] },
    { name: 'a source name is a DNS subdomain', spec: withContainer({ envFrom: [{ configMapRef: { name: 'A' } }] }), want: [`${q}[0].configMapRef.name: Invalid value: "A": ${subdomain}`] },
  ]);
});
