// Feature gates for tests: the defaults plus what a test turns on or off, so a new gate needs no edit here.
import { GATE_DEFAULTS, type FeatureGate } from '../feature-gates.js';

export const testGates = (overrides: Partial<Record<FeatureGate, boolean>> = {}): Record<FeatureGate, boolean> =>
  ({ ...GATE_DEFAULTS, ...overrides });
