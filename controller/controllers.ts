// Every controller the manager can run, in start order. CONTROLLERS=a,b limits a process to some of them.
import { launchPriorityController } from './launch-priority/controller.js';
import type { Controller } from './types.js';

export const controllers: readonly Controller[] = [
  launchPriorityController,
];
