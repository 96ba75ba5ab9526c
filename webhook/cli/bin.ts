// The `kruise-ts` CLI's process entry: argv, stdio and exit code around runCli. bin/kruise-ts.js runs it from a
// checkout (through tsx); the image carries it bundled as dist/cli/kruise-ts.mjs (scripts/bundles.ts), no tsx.
// KRUISE_TS_DEBUG=1 adds the stack to an internal error's one line.
import { readFileSync } from 'node:fs';
import { runCli } from './main.js';

const code = await runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stdin: () => readFileSync(0),
  debug: Boolean(process.env.KRUISE_TS_DEBUG),
});
process.exitCode = code;
