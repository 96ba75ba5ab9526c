#!/usr/bin/env node
// Entry point for `kruise-ts`: registers the TypeScript loader, then hands argv to the CLI's composition root.
import { readFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../webhook/cli/main.ts');
const code = await runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stdin: () => readFileSync(0, 'utf8'),
});
process.exitCode = code;
