// The esbuild bundles the containers run: the node daemon (DaemonSet) and the manager's two containers (webhook,
// controller). One flag set for all three, so what the e2e harness, the benchmarks and the image run is built alike.
// A bundle needs no tsx at run time and carries none of tsx's per-closure keepNames wrappers (`__name(...)`).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';

export interface Bundle {
  entry: string;
  /** Relative to the repo; dist/ is git-ignored. */
  out: string;
  /** Files the bundle reads next to itself at run time: [source, destination]. */
  assets: Array<[string, string]>;
  /** Further entries the bundle starts beside itself (worker threads): [entry, out], built with the same options. */
  workers?: Array<[string, string]>;
}

export const BUNDLES = {
  // daemon/cri/grpc-runtime.ts loads cri.proto from beside the running module.
  daemon: { entry: 'daemon/main.ts', out: 'dist/daemon/main.mjs', assets: [['daemon/cri/cri.proto', 'dist/daemon/cri.proto']] },
  // The admission worker pool (webhook/pool/entry.ts) starts worker.mjs from beside main.mjs.
  webhook: { entry: 'webhook/main.ts', out: 'dist/webhook/main.mjs', assets: [], workers: [['webhook/pool/worker.ts', 'dist/webhook/worker.mjs']] },
  controller: { entry: 'controller/main.ts', out: 'dist/controller/main.mjs', assets: [] },
  // The controller's leader-election thread (controller/lease-thread.ts), started from beside main.mjs.
  'controller-lease': { entry: 'controller/lease-thread.ts', out: 'dist/controller/lease-thread.mjs', assets: [] },
  // The `kruise-ts` CLI (bin/kruise-ts.js runs its source through tsx in a checkout; the image has no tsx).
  cli: { entry: 'webhook/cli/bin.ts', out: 'dist/cli/kruise-ts.mjs', assets: [] },
} as const satisfies Record<string, Bundle>;

export type BundleName = keyof typeof BUNDLES;

/** What `scripts/build.ts <group>` builds. */
export const BUNDLE_GROUPS: Record<string, BundleName[]> = {
  all: ['daemon', 'webhook', 'controller', 'controller-lease', 'cli'],
  daemon: ['daemon'],
  manager: ['webhook', 'controller', 'controller-lease'],
};

const OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  // Whitespace and syntax only: identifiers keep their names, so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  // CommonJS dependencies call require(); an ES module has none unless given one.
  banner: { js: "import{createRequire}from'node:module';const require=createRequire(import.meta.url);" },
  write: false,
};

/** Writes through a temporary file and a rename, so a process starting from `file` meanwhile never reads half of it. */
function writeAtomic(file: string, contents: Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  // Unique per write: two builds may run at once, in one process (the image's and the harness's) or in two.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, contents);
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Builds the named bundles (concurrently) under `outRoot`; returns each output's absolute path and size. */
export async function buildBundles(repoRoot: string, names: readonly BundleName[], outRoot = repoRoot): Promise<Array<{ name: BundleName; file: string; bytes: number }>> {
  return Promise.all(names.map(async (name) => {
    const b: Bundle = BUNDLES[name];
    const [file] = await Promise.all([buildEntry(repoRoot, b.entry, join(outRoot, b.out)), ...(b.workers ?? []).map(([entry, out]) => buildEntry(repoRoot, entry, join(outRoot, out)))]);
    for (const [from, to] of b.assets) writeAtomic(join(outRoot, to), readFileSync(join(repoRoot, from)));
    return { name, file, bytes: statSync(file).size };
  }));
}

/**
 * Bundles one entry (relative to `repoRoot`) into `outfile` with the bundles' options; returns `outfile`. The
 * admission benchmark builds its servers this way, so it measures code built as the manager's is.
 */
export async function buildEntry(repoRoot: string, entry: string, outfile: string): Promise<string> {
  const result = await build({ ...OPTIONS, absWorkingDir: repoRoot, entryPoints: [join(repoRoot, entry)], outfile });
  for (const o of result.outputFiles ?? []) writeAtomic(o.path, o.contents);
  return outfile;
}

const builtOnce = new Map<string, Promise<unknown>>();

/** Every bundle of the checkout at `repoRoot`, built once per process: the harness's host processes and the image share it. */
export function bundlesBuilt(repoRoot: string): Promise<unknown> {
  let built = builtOnce.get(repoRoot);
  if (!built) builtOnce.set(repoRoot, built = buildBundles(repoRoot, BUNDLE_GROUPS.all!));
  return built;
}
