// Kubernetes 1.32 pod-template rules (ValidatePodTemplateSpec with OpenKruise's DefaultPodValidationOptions), each
// case a valid defaulted template with one thing wrong, and the exact lines Kubernetes prints. Cases follow
// pkg/apis/core/validation/validation_test.go (TestValidateTopologySpreadConstraints, TestValidatePodDNSConfig,
// TestValidateWindowsHostProcessPod, TestValidateTolerations, TestValidatePodTemplateSpecSeccomp, TestValidateAffinity…).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatViolation } from '../../errors.js';
import { validatePodTemplateSpec } from './pod-template.js';

type Loose = Record<string, any>;
const base = (): Loose => ({
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'Always', terminationMessagePolicy: 'File', terminationMessagePath: '/dev/termination-log' }],
    restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler', securityContext: {},
  },
});
const F = 'spec.template';
const run = (edit: (t: Loose) => void) => {
  const t = base();
  edit(t);
  return validatePodTemplateSpec(t, F).map(formatViolation);
};
const NAME_PART = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const DNS_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const c0 = `${F}.spec.containers[0]`;

const cases: { name: string; edit: (t: Loose) => void; want: string[] }[] = [
  { name: 'a defaulted template is valid', edit: () => {}, want: [] },
  // template metadata: Kubernetes' paths have no "metadata"
  { name: 'template label key', edit: (t) => { t.metadata.labels['bad key'] = 'x'; }, want: [`${F}.labels: Invalid value: "bad key": ${NAME_PART}`] },
  { name: 'template annotation key', edit: (t) => { t.metadata.annotations = { 'a/b/c': 'x' }; },
    want: [`${F}.annotations: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`] },
  { name: 'annotations over 256 KiB', edit: (t) => { t.metadata.annotations = { a: 'x'.repeat(256 * 1024) }; }, want: [`${F}.annotations: Too long: may not be more than 262144 bytes`] },
  { name: 'mirror pod annotation without nodeName', edit: (t) => { t.metadata.annotations = { 'kubernetes.io/config.mirror': 'x' }; },
    want: [`${F}.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set`] },
  { name: 'tolerations annotation: not JSON, not a list, an invalid toleration', edit: (t) => { t.metadata.annotations = { 'scheduler.alpha.kubernetes.io/tolerations': 'x' }; },
    want: [`${F}.annotations: Invalid value: "scheduler.alpha.kubernetes.io/tolerations": invalid character 'x' looking for beginning of value`] },
  { name: 'tolerations annotation: an object', edit: (t) => { t.metadata.annotations = { 'scheduler.alpha.kubernetes.io/tolerations': '{}' }; },
    want: [`${F}.annotations: Invalid value: "scheduler.alpha.kubernetes.io/tolerations": json: cannot unmarshal object into Go value of type []core.Toleration`] },
  { name: 'tolerations annotation: its tolerations are validated', edit: (t) => { t.metadata.annotations = { 'scheduler.alpha.kubernetes.io/tolerations': '[{"operator":"Equal","value":"v"}]' }; },
    want: [`${F}.annotations.scheduler.alpha.kubernetes.io/tolerations[0].operator: Invalid value: "Equal": operator must be Exists when \`key\` is empty, which means "match all values and all keys"`] },
  { name: 'seccomp pod annotation', edit: (t) => { t.metadata.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'foo' }; },
    want: [`${F}.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "foo": must be a valid seccomp profile`] },
  { name: 'seccomp annotation and field differ', edit: (t) => {
    t.metadata.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' };
    t.spec.securityContext = { seccompProfile: { type: 'RuntimeDefault' } };
  }, want: [`${F}.spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match`] },
  { name: 'AppArmor annotation for a missing container', edit: (t) => { t.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/nope': 'runtime/default' }; },
    want: [`${F}.annotations[container.apparmor.security.beta.kubernetes.io/nope]: Invalid value: "nope": container not found`] },
  { name: 'AppArmor annotation and field differ', edit: (t) => {
    t.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined' };
    t.spec.containers[0].securityContext = { appArmorProfile: { type: 'RuntimeDefault' } };
  }, want: [`${c0}.securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match`] },
  // pod-level fields
  { name: 'terminationGracePeriodSeconds unset', edit: (t) => { delete t.spec.terminationGracePeriodSeconds; }, want: [`${F}.spec.terminationGracePeriodSeconds: Required value`] },
  { name: 'sleep longer than the template\'s own grace period', edit: (t) => { t.spec.terminationGracePeriodSeconds = 5; t.spec.containers[0].lifecycle = { preStop: { sleep: { seconds: 10 } } }; },
    want: [`${c0}.lifecycle.preStop.sleep: Invalid value: 10: must be greater than 0 and less than terminationGracePeriodSeconds (5). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`] },
  { name: 'sleep within a longer grace period', edit: (t) => { t.spec.terminationGracePeriodSeconds = 60; t.spec.containers[0].lifecycle = { preStop: { sleep: { seconds: 45 } } }; }, want: [] },
  { name: 'restartPolicy empty', edit: (t) => { t.spec.restartPolicy = ''; }, want: [`${F}.spec.restartPolicy: Required value`] },
  { name: 'restartPolicy unknown', edit: (t) => { t.spec.restartPolicy = 'Sometimes'; }, want: [`${F}.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`] },
  { name: 'resize policy with restartPolicy Never', edit: (t) => { t.spec.restartPolicy = 'Never'; t.spec.containers[0].resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }]; },
    want: [`${c0}.resizePolicy: Invalid value: "RestartContainer": must be 'NotRequired' when \`restartPolicy\` is 'Never'`] },
  { name: 'dnsPolicy unknown', edit: (t) => { t.spec.dnsPolicy = 'Nope'; }, want: [`${F}.spec.dnsPolicy: Unsupported value: "Nope": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"`] },
  { name: 'dnsPolicy None without dnsConfig', edit: (t) => { t.spec.dnsPolicy = 'None'; }, want: [`${F}.spec.dnsConfig: Required value: must provide \`dnsConfig\` when \`dnsPolicy\` is None`] },
  { name: 'dnsPolicy None without nameservers', edit: (t) => { t.spec.dnsPolicy = 'None'; t.spec.dnsConfig = { searches: ['a'] }; },
    want: [`${F}.spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when \`dnsPolicy\` is None`] },
  { name: 'dnsConfig: 4 nameservers, a bad IP, a bad search, an empty option', edit: (t) => { t.spec.dnsConfig = { nameservers: ['1.2.3.4', '1.2.3.5', '1.2.3.6', 'x'], searches: ['Bad_Domain.'], options: [{ value: '1' }] }; },
    want: [
      `${F}.spec.dnsConfig.nameservers: Invalid value: []string{"1.2.3.4", "1.2.3.5", "1.2.3.6", "x"}: must not have more than 3 nameservers`,
      `${F}.spec.dnsConfig.nameservers[3]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
      `${F}.spec.dnsConfig.searches[0]: Invalid value: "Bad_Domain": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      `${F}.spec.dnsConfig.options[0]: Required value: must not be empty`,
    ] },
  { name: 'hostNetwork: hostPort must equal containerPort (0 allowed in a template)', edit: (t) => {
    t.spec.hostNetwork = true;
    t.spec.containers[0].ports = [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 81, hostPort: 82, protocol: 'TCP' }];
  }, want: [`${c0}.ports[1].hostPort: Invalid value: 82: must match \`containerPort\` when \`hostNetwork\` is true`] },
  { name: 'hostProcess containers require hostNetwork', edit: (t) => { t.spec.securityContext = { windowsOptions: { hostProcess: true } }; },
    want: [`${F}.spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers`] },
  { name: 'hostProcess on one container only', edit: (t) => {
    t.spec.hostNetwork = true;
    t.spec.containers.push({ ...t.spec.containers[0], name: 'd', securityContext: { windowsOptions: { hostProcess: true } } });
  }, want: [`${F}.spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers`] },
  { name: 'hostProcess pod and container disagree', edit: (t) => {
    t.spec.hostNetwork = true;
    t.spec.securityContext = { windowsOptions: { hostProcess: true } };
    t.spec.containers[0].securityContext = { windowsOptions: { hostProcess: false } };
  }, want: [
    // The container's explicit false wins: no hostProcess container is counted, so only the disagreement is reported.
    `${c0}.securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true`,
  ] },
  { name: 'hostUsers false with host namespaces', edit: (t) => { t.spec.hostUsers = false; t.spec.hostNetwork = true; t.spec.hostPID = true; t.spec.hostIPC = true; },
    want: [`${F}.spec.hostNetwork: Forbidden: when \`pod.Spec.HostUsers\` is false`, `${F}.spec.HostPID: Forbidden: when \`pod.Spec.HostUsers\` is false`, `${F}.spec.HostIPC: Forbidden: when \`pod.Spec.HostUsers\` is false`] },
  { name: 'procMount Unmasked allowed with hostUsers false', edit: (t) => { t.spec.hostUsers = false; t.spec.containers[0].securityContext = { procMount: 'Unmasked' }; }, want: [] },
  { name: 'shareProcessNamespace with hostPID', edit: (t) => { t.spec.shareProcessNamespace = true; t.spec.hostPID = true; },
    want: [`${F}.spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled`] },
  { name: 'pod securityContext ids and sysctls', edit: (t) => {
    t.spec.hostNetwork = true;
    t.spec.securityContext = { runAsUser: -1, supplementalGroups: [1, -2], sysctls: [{ name: 'net.ipv4.ip_forward', value: '1' }, { name: 'Bad', value: '1' }], fsGroupChangePolicy: 'Sometimes' };
  }, want: [
    `${F}.spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive`,
    `${F}.spec.securityContext.supplementalGroups[1]: Invalid value: -2: must be between 0 and 2147483647, inclusive`,
    `${F}.spec.securityContext.sysctls[0].name: Invalid value: "net.ipv4.ip_forward": may not be specified when 'hostNetwork' is true`,
    `${F}.spec.securityContext.sysctls[1].name: Invalid value: "Bad": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$`,
    `${F}.spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"`,
  ] },
  { name: 'nodeSelector label value', edit: (t) => { t.spec.nodeSelector = { zone: 'a b' }; },
    want: [`${F}.spec.nodeSelector: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`] },
  { name: 'imagePullSecrets: only name', edit: (t) => { t.spec.imagePullSecrets = [{ name: 's', extra: 1 }]; },
    want: [`${F}.spec.imagePullSecrets[0]: Invalid value: core.LocalObjectReference{Name:"s"}: only name may be set`] },
  { name: 'readinessGates and schedulingGates', edit: (t) => { t.spec.readinessGates = [{ conditionType: 'a b' }]; t.spec.schedulingGates = [{ name: 'g' }, { name: 'g' }]; },
    want: [`${F}.spec.readinessGates[0].conditionType: Invalid value: "a b": ${NAME_PART}`, `${F}.spec.schedulingGates[1]: Duplicate value: "g"`] },
  { name: 'serviceAccountName, nodeName, hostname, priorityClassName', edit: (t) => { t.spec.serviceAccountName = 'A'; t.spec.hostname = 'a.b'; },
    want: [
      `${F}.spec.serviceAccountName: Invalid value: "A": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      `${F}.spec.hostname: Invalid value: "a.b": ${DNS_LABEL}`,
    ] },
  { name: 'activeDeadlineSeconds 0', edit: (t) => { t.spec.activeDeadlineSeconds = 0; }, want: [`${F}.spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive`] },
  // tolerations (TestValidateTolerations)
  { name: 'toleration: empty key needs Exists', edit: (t) => { t.spec.tolerations = [{ operator: 'Equal', value: 'bar', effect: 'NoSchedule' }]; },
    want: [`${F}.spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when \`key\` is empty, which means "match all values and all keys"`] },
  { name: 'toleration: tolerationSeconds needs NoExecute', edit: (t) => { t.spec.tolerations = [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 20 }]; },
    want: [`${F}.spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`] },
  { name: 'toleration: Exists with a value, unknown effect', edit: (t) => { t.spec.tolerations = [{ key: 'foo', operator: 'Exists', value: 'bar', effect: 'Sometimes' }]; },
    want: [`${F}.spec.tolerations[0].operator: Invalid value: "bar": value must be empty when \`operator\` is 'Exists'`, `${F}.spec.tolerations[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`] },
  // topology spread (TestValidateTopologySpreadConstraints)
  { name: 'topologySpread: maxSkew 0, no key, bad mode', edit: (t) => { t.spec.topologySpreadConstraints = [{ whenUnsatisfiable: 'N/A' }]; },
    want: [
      `${F}.spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero`,
      `${F}.spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty`,
      `${F}.spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "N/A": supported values: "DoNotSchedule", "ScheduleAnyway"`,
    ] },
  { name: 'topologySpread: duplicate, minDomains with ScheduleAnyway', edit: (t) => {
    t.spec.topologySpreadConstraints = [
      { maxSkew: 1, topologyKey: 'k8s.io/zone', whenUnsatisfiable: 'ScheduleAnyway', minDomains: -1 },
      { maxSkew: 1, topologyKey: 'k8s.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
    ];
  }, want: [
    `${F}.spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{k8s.io/zone, ScheduleAnyway}"`,
    `${F}.spec.topologySpreadConstraints[0].minDomains: Invalid value: -1: must be greater than zero`,
    `${F}.spec.topologySpreadConstraints[0].minDomains: Invalid value: -1: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway`,
  ] },
  { name: 'topologySpread: matchLabelKeys', edit: (t) => {
    t.spec.topologySpreadConstraints = [
      { maxSkew: 1, topologyKey: 'k', whenUnsatisfiable: 'DoNotSchedule', matchLabelKeys: ['foo'], labelSelector: { matchLabels: { foo: 'x' } }, nodeAffinityPolicy: 'Unknown' },
      { maxSkew: 1, topologyKey: 'l', whenUnsatisfiable: 'DoNotSchedule', matchLabelKeys: ['/simple'] },
    ];
  }, want: [
    `${F}.spec.topologySpreadConstraints[0].nodeAffinityPolicy: Unsupported value: "Unknown": supported values: "Honor", "Ignore"`,
    `${F}.spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: "foo": exists in both matchLabelKeys and labelSelector`,
    `${F}.spec.topologySpreadConstraints[1].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set`,
    `${F}.spec.topologySpreadConstraints[1].matchLabelKeys[0]: Invalid value: "/simple": prefix part must be non-empty`,
  ] },
  { name: 'topologySpread: invalid labelSelector values are not checked (kruise option)', edit: (t) => {
    t.spec.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: 'k', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'x' } } }];
  }, want: [] },
  // affinity
  { name: 'node affinity: no terms, bad weight, Gt with two values', edit: (t) => {
    t.spec.affinity = { nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] },
      preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 101, preference: { matchExpressions: [{ key: 'k', operator: 'Gt', values: ['1', '2'] }] } }],
    } };
  }, want: [
    `${F}.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term`,
    `${F}.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100`,
    `${F}.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`,
  ] },
  { name: 'node affinity: field selector key', edit: (t) => {
    t.spec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.namespace', operator: 'In', values: ['a'] }] }] } } };
  }, want: [`${F}.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "metadata.namespace": not a valid field selector key`] },
  { name: 'pod anti-affinity: empty topologyKey, bad namespace', edit: (t) => {
    t.spec.affinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, namespaces: ['A'], topologyKey: '' }] } };
  }, want: [
    `${F}.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value: "A": ${DNS_LABEL}`,
    `${F}.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty`,
    `${F}.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty`,
    `${F}.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${NAME_PART}`,
  ] },
  { name: 'hostAliases IP and hostname', edit: (t) => { t.spec.hostAliases = [{ ip: '999.1.1.1', hostnames: ['ok', 'Not_OK'] }]; },
    want: [
      `${F}.spec.hostAliases[0].ip: Invalid value: "999.1.1.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
      `${F}.spec.hostAliases[0].hostnames[1]: Invalid value: "Not_OK": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ] },
  { name: 'preemptionPolicy and os', edit: (t) => { t.spec.preemptionPolicy = 'Maybe'; t.spec.os = { name: 'plan9' }; },
    want: [`${F}.spec.preemptionPolicy: Unsupported value: "Maybe": supported values: "PreemptLowerPriority", "Never"`, `${F}.spec.os: Unsupported value: "plan9": supported values: "linux", "windows"`] },
  { name: 'a linux pod with windows options', edit: (t) => { t.spec.os = { name: 'linux' }; t.spec.containers[0].securityContext = { windowsOptions: { runAsUserName: 'x' } }; },
    want: [`${c0}.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod`] },
  { name: 'a windows pod with Linux settings', edit: (t) => { t.spec.os = { name: 'windows' }; t.spec.hostPID = true; t.spec.containers[0].securityContext = { privileged: false }; },
    want: [`${F}.spec.hostPID: Forbidden: cannot be set for a windows pod`, `${c0}.securityContext.privileged: Forbidden: cannot be set for a windows pod`] },
  { name: 'image volume without pullPolicy', edit: (t) => { t.spec.volumes = [{ name: 'img', image: { reference: 'busybox:1' } }]; },
    want: [`${F}.spec.volumes[0].image.pullPolicy: Required value`] },
  { name: 'a container claim the template declares is valid', edit: (t) => {
    t.spec.resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: 'gpu-tpl' }];
    t.spec.containers[0].resources = { claims: [{ name: 'gpu' }] };
  }, want: [] },
  { name: 'a container claim the template does not declare lists the declared ones', edit: (t) => {
    t.spec.resourceClaims = [{ name: 'b', resourceClaimName: 'rc' }, { name: 'a', resourceClaimName: 'rc' }];
    t.spec.containers[0].resources = { claims: [{ name: 'x' }] };
  }, want: [`${c0}.resources.claims[0]: Not found: "x": must be one of the names in pod.spec.resourceClaims: a, b`] },
  { name: 'pod resource claims: duplicate name, neither source', edit: (t) => { t.spec.resourceClaims = [{ name: 'a', resourceClaimName: 'rc' }, { name: 'a' }]; },
    want: [
      `${F}.spec.resourceClaims[1].name: Duplicate value: "a"`,
      `${F}.spec.resourceClaims[1]: Invalid value: core.PodResourceClaim{Name:"a", ResourceClaimName:(*string)(nil), ResourceClaimTemplateName:(*string)(nil)}: must specify one of: \`resourceClaimName\`, \`resourceClaimTemplateName\``,
    ] },
  { name: 'overhead is checked as a container\'s limits (the path says limits)', edit: (t) => { t.spec.overhead = { cpu: '-1' }; },
    want: [`${F}.spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`] },
  { name: 'ephemeral containers are not allowed in a template', edit: (t) => { t.spec.ephemeralContainers = [{ name: 'e', image: 'busybox', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' }]; },
    want: [`${F}.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template`] },
];

describe('pod template validation (Kubernetes 1.32 ValidatePodTemplateSpec, OpenKruise options)', () => {
  for (const tc of cases) it(tc.name, () => assert.deepEqual(run(tc.edit), tc.want));
});
