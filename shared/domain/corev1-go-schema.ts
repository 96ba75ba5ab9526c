// Go struct layouts of k8s.io/api v0.30.10 core/v1 (the version OpenKruise v1.8.4 builds against), as a go-json
// schema: JSON names in Go declaration order, Go types, omitempty flags. Embedded structs (Probe's ProbeHandler) are
// flattened in place, as encoding/json does. Listed mechanically from the Go types via reflection; do not reorder.
import type { GoSchema } from './go-json.js';

const O = true; // omitempty
const A = false; // always emitted

export const coreV1ContainerSchema: GoSchema = {
  ContainerPort: [
    ['name', 'string', O],
    ['hostPort', 'int32', O],
    ['containerPort', 'int32', A],
    ['protocol', 'string', O],
    ['hostIP', 'string', O],
  ],
  ConfigMapEnvSource: [
    ['name', 'string', O],
    ['optional', '*bool', O],
  ],
  SecretEnvSource: [
    ['name', 'string', O],
    ['optional', '*bool', O],
  ],
  EnvFromSource: [
    ['prefix', 'string', O],
    ['configMapRef', '*ConfigMapEnvSource', O],
    ['secretRef', '*SecretEnvSource', O],
  ],
  ObjectFieldSelector: [
    ['apiVersion', 'string', O],
    ['fieldPath', 'string', A],
  ],
  ResourceFieldSelector: [
    ['containerName', 'string', O],
    ['resource', 'string', A],
    ['divisor', 'Quantity', O],
  ],
  ConfigMapKeySelector: [
    ['name', 'string', O],
    ['key', 'string', A],
    ['optional', '*bool', O],
  ],
  SecretKeySelector: [
    ['name', 'string', O],
    ['key', 'string', A],
    ['optional', '*bool', O],
  ],
  EnvVarSource: [
    ['fieldRef', '*ObjectFieldSelector', O],
    ['resourceFieldRef', '*ResourceFieldSelector', O],
    ['configMapKeyRef', '*ConfigMapKeySelector', O],
    ['secretKeyRef', '*SecretKeySelector', O],
  ],
  EnvVar: [
    ['name', 'string', A],
    ['value', 'string', O],
    ['valueFrom', '*EnvVarSource', O],
  ],
  ResourceClaim: [
    ['name', 'string', A],
    ['request', 'string', O],
  ],
  ResourceRequirements: [
    ['limits', 'map[string]Quantity', O],
    ['requests', 'map[string]Quantity', O],
    ['claims', '[]ResourceClaim', O],
  ],
  ContainerResizePolicy: [
    ['resourceName', 'string', A],
    ['restartPolicy', 'string', A],
  ],
  VolumeMount: [
    ['name', 'string', A],
    ['readOnly', 'bool', O],
    ['recursiveReadOnly', '*string', O],
    ['mountPath', 'string', A],
    ['subPath', 'string', O],
    ['mountPropagation', '*string', O],
    ['subPathExpr', 'string', O],
  ],
  VolumeDevice: [
    ['name', 'string', A],
    ['devicePath', 'string', A],
  ],
  ExecAction: [
    ['command', '[]string', O],
  ],
  HTTPHeader: [
    ['name', 'string', A],
    ['value', 'string', A],
  ],
  HTTPGetAction: [
    ['path', 'string', O],
    ['port', 'IntOrString', A],
    ['host', 'string', O],
    ['scheme', 'string', O],
    ['httpHeaders', '[]HTTPHeader', O],
  ],
  TCPSocketAction: [
    ['port', 'IntOrString', A],
    ['host', 'string', O],
  ],
  GRPCAction: [
    ['port', 'int32', A],
    ['service', '*string', A],
  ],
  Probe: [
    ['exec', '*ExecAction', O],
    ['httpGet', '*HTTPGetAction', O],
    ['tcpSocket', '*TCPSocketAction', O],
    ['grpc', '*GRPCAction', O],
    ['initialDelaySeconds', 'int32', O],
    ['timeoutSeconds', 'int32', O],
    ['periodSeconds', 'int32', O],
    ['successThreshold', 'int32', O],
    ['failureThreshold', 'int32', O],
    ['terminationGracePeriodSeconds', '*int64', O],
  ],
  SleepAction: [
    ['seconds', 'int64', A],
  ],
  LifecycleHandler: [
    ['exec', '*ExecAction', O],
    ['httpGet', '*HTTPGetAction', O],
    ['tcpSocket', '*TCPSocketAction', O],
    ['sleep', '*SleepAction', O],
  ],
  Lifecycle: [
    ['postStart', '*LifecycleHandler', O],
    ['preStop', '*LifecycleHandler', O],
  ],
  Capabilities: [
    ['add', '[]string', O],
    ['drop', '[]string', O],
  ],
  SELinuxOptions: [
    ['user', 'string', O],
    ['role', 'string', O],
    ['type', 'string', O],
    ['level', 'string', O],
  ],
  WindowsSecurityContextOptions: [
    ['gmsaCredentialSpecName', '*string', O],
    ['gmsaCredentialSpec', '*string', O],
    ['runAsUserName', '*string', O],
    ['hostProcess', '*bool', O],
  ],
  SeccompProfile: [
    ['type', 'string', A],
    ['localhostProfile', '*string', O],
  ],
  AppArmorProfile: [
    ['type', 'string', A],
    ['localhostProfile', '*string', O],
  ],
  SecurityContext: [
    ['capabilities', '*Capabilities', O],
    ['privileged', '*bool', O],
    ['seLinuxOptions', '*SELinuxOptions', O],
    ['windowsOptions', '*WindowsSecurityContextOptions', O],
    ['runAsUser', '*int64', O],
    ['runAsGroup', '*int64', O],
    ['runAsNonRoot', '*bool', O],
    ['readOnlyRootFilesystem', '*bool', O],
    ['allowPrivilegeEscalation', '*bool', O],
    ['procMount', '*string', O],
    ['seccompProfile', '*SeccompProfile', O],
    ['appArmorProfile', '*AppArmorProfile', O],
  ],
  Container: [
    ['name', 'string', A],
    ['image', 'string', O],
    ['command', '[]string', O],
    ['args', '[]string', O],
    ['workingDir', 'string', O],
    ['ports', '[]ContainerPort', O],
    ['envFrom', '[]EnvFromSource', O],
    ['env', '[]EnvVar', O],
    ['resources', 'ResourceRequirements', O],
    ['resizePolicy', '[]ContainerResizePolicy', O],
    ['restartPolicy', '*string', O],
    ['volumeMounts', '[]VolumeMount', O],
    ['volumeDevices', '[]VolumeDevice', O],
    ['livenessProbe', '*Probe', O],
    ['readinessProbe', '*Probe', O],
    ['startupProbe', '*Probe', O],
    ['lifecycle', '*Lifecycle', O],
    ['terminationMessagePath', 'string', O],
    ['terminationMessagePolicy', 'string', O],
    ['imagePullPolicy', 'string', O],
    ['securityContext', '*SecurityContext', O],
    ['stdin', 'bool', O],
    ['stdinOnce', 'bool', O],
    ['tty', 'bool', O],
  ],
};
