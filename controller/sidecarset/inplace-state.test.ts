import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOW } from './fixtures.js';
import { parseInPlaceStates, recordInPlaceUpdate } from './inplace-state.js';

const ids = new Map([['c1', 'img@sha256:1'], ['c2', '']]);

test('a new entry gets the revision and time; each changed container records its pre-update imageID', () => {
  assert.equal(recordInPlaceUpdate(undefined, 's', 'h1', ['c1', 'c2'], ids, NOW),
    '{"s":{"revision":"h1","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":{"c1":{"imageID":"img@sha256:1"},"c2":{}}}}');
});

test('an existing entry keeps revision and time and gains containers; other SidecarSets survive', () => {
  const before = '{"other":{"revision":"x","updateTimestamp":"2025-01-01T00:00:00+01:00","lastContainerStatuses":{}},' +
    '"s":{"revision":"h0","updateTimestamp":"2025-12-31T00:00:00Z","lastContainerStatuses":{"c0":{"imageID":"old"}}}}';
  assert.equal(recordInPlaceUpdate(before, 's', 'h1', ['c1'], ids, NOW),
    '{"other":{"revision":"x","updateTimestamp":"2024-12-31T23:00:00Z","lastContainerStatuses":{}},' +
    '"s":{"revision":"h0","updateTimestamp":"2025-12-31T00:00:00Z","lastContainerStatuses":{"c0":{"imageID":"old"},"c1":{"imageID":"img@sha256:1"}}}}');
});

test('garbage starts afresh; Go decoding failures read as invalid', () => {
  assert.match(recordInPlaceUpdate('not json', 's', 'h', [], ids, NOW), /^\{"s":/);
  assert.equal(parseInPlaceStates('{"s":{"revision":1}}'), 'invalid');
  assert.equal(parseInPlaceStates('{"s":"x"}'), 'invalid');
  assert.equal(parseInPlaceStates(undefined), undefined);
  assert.deepEqual(parseInPlaceStates('null'), new Map());
});
