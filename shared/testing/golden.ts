// Golden-file assertions for node:test (Node 20 has no snapshots). REFRESH_GOLDEN=1 rewrites the expected files;
// goldens nobody checked in a run are reported stale, so deleted inputs cannot leave orphans behind.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface GoldenDir {
  /** Compares `actual` with `<dir>/<name>` (or writes it when refreshing). */
  check(name: string, actual: string): void;
  /** Fails listing every `*.golden.*` file in the directory that no check() used. */
  assertNoStale(): void;
}

export function goldenDir(dir: string, refresh = process.env.REFRESH_GOLDEN === '1'): GoldenDir {
  const used = new Set<string>();
  return {
    check(name, actual) {
      used.add(name);
      const file = join(dir, name);
      if (refresh) return writeFileSync(file, actual);
      assert.ok(existsSync(file), `golden file ${file} is missing; run with REFRESH_GOLDEN=1 to create it`);
      assert.equal(actual, readFileSync(file, 'utf8'), `${file} differs; if the change is intended, rerun with REFRESH_GOLDEN=1`);
    },
    assertNoStale() {
      const stale = readdirSync(dir).filter((f) => f.includes('.golden.') && !used.has(f));
      assert.deepEqual(stale, [], `stale golden files in ${dir} (their input is gone): ${stale.join(', ')}`);
    },
  };
}
