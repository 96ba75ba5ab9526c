// apps.kruise.io/v1alpha1 ContainerRecreateRequest (spec/daemon-and-controllers.md §4.1). Namespaced, short name `crr`.
import type { KruiseObject } from './meta.js';
import type { V1ContainerPort, V1ExecAction, V1HTTPGetAction, V1TCPSocketAction } from '@kubernetes/client-node';

export type CRRFailurePolicy = 'Fail' | 'Ignore';
export type CRRPhase = 'Pending' | 'Recreating' | 'Succeeded' | 'Failed' | 'Completed';

/** Copied from the pod container's lifecycle.preStop by the webhook; never user-set. */
export interface ProbeHandler {
  exec?: V1ExecAction;
  httpGet?: V1HTTPGetAction;
  tcpSocket?: V1TCPSocketAction;
}

export interface ContainerRecreateRequestContainerContext {
  containerID: string;
  restartCount: number;
}

export interface ContainerRecreateRequestContainer {
  name: string;
  /** Read-only: filled by the webhook. */
  preStop?: ProbeHandler;
  /** Read-only: filled by the webhook when preStop is an httpGet. */
  ports?: V1ContainerPort[];
  /** Read-only: filled by the webhook from the pod's containerStatus. */
  statusContext?: ContainerRecreateRequestContainerContext;
}

export interface ContainerRecreateRequestStrategy {
  failurePolicy?: CRRFailurePolicy | string;
  orderedRecreate?: boolean;
  forceRecreate?: boolean;
  terminationGracePeriodSeconds?: number;
  unreadyGracePeriodSeconds?: number;
  minStartedSeconds?: number;
}

export interface ContainerRecreateRequestSpec {
  podName: string;
  containers: ContainerRecreateRequestContainer[];
  strategy?: ContainerRecreateRequestStrategy;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
}

export interface ContainerRecreateRequestContainerRecreateState {
  name: string;
  phase: CRRPhase | string;
  message?: string;
  isKilled?: boolean;
}

export interface ContainerRecreateRequestStatus {
  phase?: CRRPhase | string;
  completionTime?: string;
  message?: string;
  containerRecreateStates?: ContainerRecreateRequestContainerRecreateState[];
}

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
