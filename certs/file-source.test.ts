import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../shared/log.js';
import { systemClock } from './clock.js';
import { fileSource } from './file-source.js';
import { generateCA, generateServingCert } from './generate.js';

const now = new Date();
const ca = generateCA(now);
const a = generateServingCert(ca, 'localhost', now);
const b = generateServingCert(ca, 'localhost', now);

test('mounted files are loaded, a change is picked up, and a mismatched pair keeps the previous one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kruise-ext-'));
  try {
    await writeFile(join(dir, 'tls.crt'), a.cert);
    await writeFile(join(dir, 'tls.key'), a.key);
    await writeFile(join(dir, 'ca.crt'), ca.cert);
    const src = fileSource({ dir, clock: systemClock, log: silentLogger() });
    const seen: string[] = [];
    src.onChange((c) => seen.push(c.cert));
    assert.equal(await src.loadOnce(), true);
    assert.equal(await src.loadOnce(), false, 'unchanged files are not a change');
    assert.equal(src.healthy(), true);
    assert.equal(await src.caBundle(), ca.cert);

    await writeFile(join(dir, 'tls.crt'), b.cert);
    await assert.rejects(src.loadOnce(), 'cert b with key a is not a valid pair');
    assert.equal(src.current()?.cert, a.cert);

    await writeFile(join(dir, 'tls.key'), b.key);
    assert.equal(await src.loadOnce(), true);
    assert.deepEqual(seen, [a.cert, b.cert]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
