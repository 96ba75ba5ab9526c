import assert from 'node:assert/strict';
import { it } from 'node:test';
import { goUrlParses } from './go-url.js';

it('goUrlParses: what Go 1.23 url.Parse accepts and refuses', () => {
  const ok = ['', '/', '/healthz', '/a/b?x=1&y=%41', '/p#frag', 'relative/path', 'a/b:c', 'http://h:80/x', 'mailto:x', '//host/p', '///x', '*', '/%20', '?only'];
  const bad = ['path%notvalid', '/a%2', '/a%zz', ':x', ':b/c', '1ab:c/', '/a\u0001', '/a\u007f', '/p#%x', '//[::1/x', '//h:8a/x', '//h h/x', 'http://u%zz@h/'];
  for (const s of ok) assert.equal(goUrlParses(s), true, JSON.stringify(s));
  for (const s of bad) assert.equal(goUrlParses(s), false, JSON.stringify(s));
});
