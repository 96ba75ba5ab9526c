// The attacks of admission-attacks.ts in a worker thread: started with {targets, namespace}; 'stop' answers the tally.
import { parentPort, workerData } from 'node:worker_threads';
import { startAttacks, type AttackName, type Target } from './admission-attacks.js';

const { targets, namespace, only, localAddress } = workerData as { targets: Target[]; namespace: string; only?: AttackName[]; localAddress?: string };
const attacks = startAttacks(targets, namespace, only, localAddress);
parentPort!.postMessage({ started: true });
parentPort!.on('message', (m: { stop?: boolean }) => {
  if (m.stop) void attacks.stop().then((tally) => { parentPort!.postMessage({ tally }); parentPort!.close(); });
});
