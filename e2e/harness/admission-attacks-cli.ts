// The attacks of admission-attacks.ts as a process of their own, so that a test can run them from another network
// namespace (node/bridge-host.ts): argv[2] is {targets, namespace, only, seconds}. Prints `started` once the attacks
// are under way, and after `seconds` the tally as one JSON line, then exits.
import { startAttacks, type AttackName, type Target } from './admission-attacks.js';

const { targets, namespace, only, seconds } = JSON.parse(process.argv[2] ?? '{}') as { targets: Target[]; namespace: string; only?: AttackName[]; seconds: number };
const attacks = startAttacks(targets, namespace, only);
process.stdout.write('started\n');
setTimeout(() => {
  void attacks.stop().then((tally) => {
    process.stdout.write(`${JSON.stringify({ tally })}\n`);
    process.exit(0);
  });
}, seconds * 1000);
