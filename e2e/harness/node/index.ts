export { startRealNode, REAL_NODE_LABEL, REAL_NODE_TAINT, type ControlPlaneRef, type RealNode, type RealNodeOptions } from './start.js';
export { stopRealNode, type RealNodeState } from './stop.js';
