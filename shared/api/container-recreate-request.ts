// apps.kruise.io/v1alpha1 ContainerRecreateRequest (spec/daemon-and-controllers.md §4.1). Namespaced, short name `crr`.
import { Type, type Static } from '@sinclair/typebox';
import type { V1ContainerPort, V1ExecAction, V1HTTPGetAction, V1TCPSocketAction } from '@kubernetes/client-node';
import type { KruiseObject } from './meta.js';
import { Bool, CORE_V1, Core, CrdRequired, Int32, Int64, KindSchema, Obj, Str, Time } from './schema.js';

export type CRRFailurePolicy = 'Fail' | 'Ignore';
export type CRRPhase = 'Pending' | 'Recreating' | 'Succeeded' | 'Failed' | 'Completed';

/** Copied from the pod container's lifecycle.preStop by the webhook; never user-set. */
export const ProbeHandlerSchema = Obj('ProbeHandler is the action (one of exec, httpGet, tcpSocket) copied from the container\'s preStop hook.', {
  exec: Type.Optional(Core<V1ExecAction>(`${CORE_V1}ExecAction`, 'One and only one of the following should be specified. Exec specifies the action to take.')),
  httpGet: Type.Optional(Core<V1HTTPGetAction>(`${CORE_V1}HTTPGetAction`, 'HTTPGet specifies the http request to perform.')),
  tcpSocket: Type.Optional(Core<V1TCPSocketAction>(`${CORE_V1}TCPSocketAction`, 'TCPSocket specifies an action involving a TCP port.')),
});
export type ProbeHandler = Static<typeof ProbeHandlerSchema>;

export const ContainerRecreateRequestContainerContextSchema = Obj('StatusContext is synced from the real Pod status when the ContainerRecreateRequest is created. Populated by the system. Read-only.', {
  containerID: Str("Container's ID in the format '<runtime>://<container_id>'."),
  restartCount: Int32('The number of times the container has been restarted, as the pod status reported it when the request was created.'),
});
export type ContainerRecreateRequestContainerContext = Static<typeof ContainerRecreateRequestContainerContextSchema>;

export const ContainerRecreateRequestContainerSchema = Obj('ContainerRecreateRequestContainer names a container to recreate.', {
  name: Str('Name of the container to recreate. It must exist in the pod\'s spec.containers.'),
  preStop: Type.Optional({ ...ProbeHandlerSchema, description: 'PreStop is synced from the real container in the Pod spec when the ContainerRecreateRequest is created. Populated by the system. Read-only.' }),
  ports: Type.Optional(Type.Array(Core<V1ContainerPort>(`${CORE_V1}ContainerPort`, 'ContainerPort represents a network port in a single container.'),
    { description: 'Ports is synced from the real container in the Pod spec when the ContainerRecreateRequest is created. Populated by the system. Read-only.' })),
  statusContext: Type.Optional(ContainerRecreateRequestContainerContextSchema),
});
export type ContainerRecreateRequestContainer = Static<typeof ContainerRecreateRequestContainerSchema>;

export const ContainerRecreateRequestStrategySchema = Obj('Strategy defines strategies for containers recreation.', {
  failurePolicy: Type.Optional(Str('FailurePolicy decides whether to continue if one container fails to recreate: Fail or Ignore.')),
  orderedRecreate: Type.Optional(Bool('OrderedRecreate indicates whether to recreate the next container only if the previous one has recreated completely.')),
  forceRecreate: Type.Optional(Bool('ForceRecreate indicates whether to force kill the container even if the previous container is starting.')),
  terminationGracePeriodSeconds: Type.Optional(Int64('TerminationGracePeriodSeconds is the optional duration in seconds to wait for the container to terminate gracefully. Value must be a non-negative integer; zero means delete immediately. If unset, the pod\'s spec.terminationGracePeriodSeconds is used.')),
  unreadyGracePeriodSeconds: Type.Optional(Int64('UnreadyGracePeriodSeconds is the optional duration in seconds to keep the Pod marked not ready before executing the preStop hook and stopping the container.')),
  minStartedSeconds: Type.Optional(Int32('Minimum number of seconds for which a newly created container should be started and ready, without any of its containers crashing, for it to be considered Succeeded. Defaults to 0 (Succeeded as soon as it is started and ready).')),
});
export type ContainerRecreateRequestStrategy = Static<typeof ContainerRecreateRequestStrategySchema>;

export const ContainerRecreateRequestSpecSchema = Obj('ContainerRecreateRequestSpec defines the desired state of ContainerRecreateRequest.', {
  podName: Str('PodName is the name of the Pod that owns the recreated containers.'),
  containers: Type.Array(ContainerRecreateRequestContainerSchema, { description: 'Containers contains the containers that need to be recreated in the Pod.' }),
  strategy: Type.Optional(ContainerRecreateRequestStrategySchema),
  activeDeadlineSeconds: Type.Optional(Int64('ActiveDeadlineSeconds is the deadline duration of this ContainerRecreateRequest.')),
  ttlSecondsAfterFinished: Type.Optional(Int32('TTLSecondsAfterFinished is the TTL duration after this ContainerRecreateRequest has completed.')),
});
export type ContainerRecreateRequestSpec = Static<typeof ContainerRecreateRequestSpecSchema>;

export const ContainerRecreateRequestContainerRecreateStateSchema = Obj('ContainerRecreateRequestContainerRecreateState contains the recreation state of a container.', {
  name: Str('Name of the container.'),
  phase: Str('Phase indicates the recreation phase of the container.'),
  message: Type.Optional(Str('A human readable message indicating details about this state.')),
  isKilled: Type.Optional(Bool('Whether the container has been killed by the kruise daemon.')),
});
export type ContainerRecreateRequestContainerRecreateState = Static<typeof ContainerRecreateRequestContainerRecreateStateSchema>;

export const ContainerRecreateRequestStatusSchema = Obj('ContainerRecreateRequestStatus defines the observed state of ContainerRecreateRequest.', {
  phase: CrdRequired(Str('Phase of this ContainerRecreateRequest, e.g. Pending, Recreating, Completed.')),
  completionTime: Type.Optional(Time('Represents the time when the ContainerRecreateRequest was completed. It is not guaranteed to be set in happens-before order across separate operations. It is represented in RFC3339 form and is in UTC.')),
  message: Type.Optional(Str('A human readable message indicating details about this ContainerRecreateRequest.')),
  containerRecreateStates: Type.Optional(Type.Array(ContainerRecreateRequestContainerRecreateStateSchema, { description: 'ContainerRecreateStates contains the recreation states of the containers.' })),
});
export type ContainerRecreateRequestStatus = Static<typeof ContainerRecreateRequestStatusSchema>;

export const ContainerRecreateRequestSchema = KindSchema('ContainerRecreateRequest is the Schema for the containerrecreaterequests API: it asks the kruise daemon to recreate (restart) containers of a running Pod in place.',
  ContainerRecreateRequestSpecSchema, ContainerRecreateRequestStatusSchema);
export type ContainerRecreateRequest = KruiseObject<ContainerRecreateRequestSpec, ContainerRecreateRequestStatus>;

export const CRRPodUIDLabel = 'crr.apps.kruise.io/pod-uid';
export const CRRNodeNameLabel = 'crr.apps.kruise.io/node-name';
export const CRRActiveLabel = 'crr.apps.kruise.io/active';
/** Copied from the Node so virtual-kubelet nodes can be excluded by daemons. */
export const CRRVirtualKubeletLabelKey = 'type';
export const CRRVirtualKubeletLabelValue = 'virtual-kubelet';
export const CRRSyncContainerStatusesAnnotation = 'crr.apps.kruise.io/sync-container-statuses';
/** Both an annotation (RFC3339 time, immutable once set) and the finalizer held while the pod is forced not-ready. */
export const CRRUnreadyAcquiredKey = 'crr.apps.kruise.io/unready-acquired';
export const KruisePodReadyConditionType = 'KruisePodReady';
export const SidecarTerminatedConditionType = 'SidecarTerminated';
