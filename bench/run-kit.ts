// What a benchmark script that starts processes needs around its measurements: numeric flags, progress lines and
// figures stamped with the load average, polling with progress, the stack's processes watched for an early exit, and
// one way out. Everything started is stopped on every way out — normal end, an error, the time limit, a signal, an
// unhandled rejection — by pid with polling (killGroups), not a child's exit event: that never comes once the event
// loop has nothing else to do, and the process would end with the rest of the cluster still running.
import { rmSync } from 'node:fs';
import type { Daemon } from '../e2e/harness/runtime/process.js';
import { load } from './sidecarset/probes.js';

/** `--name value` from `argv` as a positive number, else `def`. */
export function numberArg(argv: readonly string[], name: string, def: number): number {
  const i = argv.indexOf(`--${name}`);
  const v = i > 0 ? Number(argv[i + 1]) : def;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} wants a positive number, got ${argv[i + 1]}`);
  return v;
}

export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export interface BenchRun {
  /** Run last to first on the way out (unshift a process, push a folder to remove after them). */
  readonly stops: (() => Promise<void>)[];
  /** Removes `dir` on the way out after a normal end; after a failure keeps it (logs) and says where. */
  removeOnSuccess(dir: string): void;
  say(s: string): void;
  /** Records a figure with the load average at the moment it was taken. */
  figure(name: string, value: string): void;
  /** From now on, `until` fails as soon as one of these processes has exited. */
  watch(daemons: readonly Daemon[]): void;
  /** Names a watched process that has exited, else undefined. */
  exited(): string | undefined;
  /** Polls `f` until it answers truthy, printing `progress()` every 10 s. */
  until<T>(what: string, f: () => Promise<T | false | undefined>, opts?: { everyMs?: number; progress?: () => string | Promise<string> }): Promise<T>;
  /** Runs `main`, prints the figures and stops everything; exits the process (2 at the time limit). */
  main(main: () => Promise<void>): Promise<never>;
}

/** `heading` opens the figures table; after `limitMs` the run aborts with the figures it has. */
export function benchRun(opts: { heading: string; limitMs: number }): BenchRun {
  const t0 = Date.now();
  const figures: [string, string][] = [];
  let daemons: readonly Daemon[] = [];
  const stops: (() => Promise<void>)[] = [];
  let cleaning: Promise<void> | undefined;
  let failed = false;
  const say = (s: string) => process.stdout.write(`[${secs(Date.now() - t0).padStart(7)} | load ${load()}] ${s}\n`);
  const printFigures = () => {
    process.stdout.write(`\n${opts.heading}; load = 1/5/15-min load average\n\n| figure | value |\n|---|---|\n`);
    for (const [k, v] of figures) process.stdout.write(`| ${k} | ${v} |\n`);
  };
  const cleanup = () => (cleaning ??= (async () => { for (const stop of stops) await stop().catch(() => {}); })());
  const abort = (why: unknown, code: number) => {
    failed = true;
    process.stderr.write(`bench aborted: ${why instanceof Error ? (why.stack ?? why.message) : String(why)}\n`);
    printFigures();
    void cleanup().finally(() => process.exit(code));
  };
  const exitedDaemon = () => daemons.find((d) => d.child.exitCode !== null || d.child.signalCode !== null);
  const exited = () => exitedDaemon()?.name;

  return {
    stops, say, exited,
    removeOnSuccess(dir) {
      stops.push(async () => {
        if (failed) process.stderr.write(`bench: run folder kept, logs in ${dir}/logs\n`);
        else rmSync(dir, { recursive: true, force: true });
      });
    },
    figure(name, value) {
      figures.push([name, `${value} (load ${load()})`]);
      say(`${name}: ${value}`);
    },
    watch(d) { daemons = d; },
    async until(what, f, o = {}) {
      let lastReport = Date.now();
      for (;;) {
        const gone = exitedDaemon();
        if (gone) {
          const { exitCode, signalCode } = gone.child;
          throw new Error(`${what}: ${gone.name} exited (${signalCode ?? `code ${exitCode}`}); last lines of ${gone.logFile}:\n${gone.tail(30)}`);
        }
        const v = await f().catch(() => undefined);
        if (v) return v;
        if (o.progress && Date.now() - lastReport >= 10_000) {
          lastReport = Date.now();
          say(`  ${what}: ${await Promise.resolve(o.progress()).catch((e: Error) => e.message)}`);
        }
        await new Promise((r) => setTimeout(r, o.everyMs ?? 250));
      }
    },
    async main(main) {
      process.once('SIGINT', () => abort('SIGINT', 130));
      process.once('SIGTERM', () => abort('SIGTERM', 143));
      process.on('unhandledRejection', (err) => abort(err, 1));
      setTimeout(() => abort(`time limit of ${opts.limitMs / 60_000} min reached (--limit-minutes); figures so far above`, 2), opts.limitMs).unref();
      try {
        await main();
      } catch (err) {
        abort(err, 1);
        return new Promise<never>(() => {});
      }
      printFigures();
      await cleanup();
      process.exit(0);
    },
  };
}
