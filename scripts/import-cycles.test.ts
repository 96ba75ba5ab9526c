import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cycles, importGraph } from './import-cycles.js';

describe('import cycles (npm run lint)', () => {
  it('finds each strongly connected component of more than one file, and no file on its own', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a', 'd']], ['d', []], ['e', ['e2']], ['e2', ['e']], ['f', ['f']]]);
    assert.deepEqual(cycles(g).sort(), [['a', 'b', 'c'], ['e', 'e2']]);
  });

  it('the project has none (type-only imports count)', () => {
    const repo = join(import.meta.dirname, '..');
    const g = importGraph(repo);
    assert.ok(g.size > 500, `${g.size} files read`);
    assert.deepEqual(cycles(g), []);
  });
});
