// Every controller the manager can run, in start order. CONTROLLERS=a,b limits a process to some of them.
import { cloneSetController } from './cloneset/controller.js';
import { podReadinessController } from './podreadiness/controller.js';
import { podUnavailableBudgetController } from './podunavailablebudget/controller.js';
import { containerRecreateRequestController } from './containerrecreaterequest/controller.js';
import { imageListPullJobController } from './imagelistpulljob/controller.js';
import { imagePullJobController } from './imagepulljob/controller.js';
import { launchPriorityController } from './launch-priority/controller.js';
import { resourceDistributionController } from './resourcedistribution/controller.js';
import { nodeImageController } from './nodeimage/controller.js';
import { nodePodProbeController } from './nodepodprobe/controller.js';
import { podProbeMarkerController } from './podprobemarker/controller.js';
import { sidecarSetController } from './sidecarset/controller.js';
import { sidecarTerminatorController } from './sidecarterminator/controller.js';
import { workloadSpreadController } from './workloadspread/controller.js';
import type { Controller } from './types.js';

export const controllers: readonly Controller[] = [
  launchPriorityController,
  containerRecreateRequestController,
  resourceDistributionController,
  nodeImageController,
  nodePodProbeController,
  podProbeMarkerController,
  imagePullJobController,
  imageListPullJobController,
  sidecarSetController,
  cloneSetController,
  podReadinessController,
  podUnavailableBudgetController,
  sidecarTerminatorController,
  workloadSpreadController,
];
