#!/usr/bin/env node
// Entry point for `kruise-ts` in a checkout: registers the TypeScript loader (tsx, a devDependency), then runs the
// CLI's entry (webhook/cli/bin.ts). The image runs the same entry bundled: node dist/cli/kruise-ts.mjs.
import { register } from 'tsx/esm/api';

register();
await import('../webhook/cli/bin.ts');
