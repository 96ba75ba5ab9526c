#!/usr/bin/env node
// Entry point for `kruise-ts`: registers the TypeScript loader, then hands argv to the CLI's composition root.
// KRUISE_TS_DEBUG=1 adds the stack to an internal error's one line.
import { readFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../webhook/cli/main.ts');
const code = await runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stdin: () => readFileSync(0),
  debug: Boolean(process.env.KRUISE_TS_DEBUG),
});
process.exitCode = code;
