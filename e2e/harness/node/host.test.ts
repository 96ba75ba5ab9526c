import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostsLine, withHostsLine, withoutHostsLine } from './host.js';

describe('/etc/hosts edits', () => {
  const base = '127.0.0.1 localhost\n127.0.0.1 vm\n';

  it('adds one tagged line, once, keeping the rest', () => {
    const line = hostsLine('kts-node-1', 'kruise-ts run-a');
    const once = withHostsLine(base, line);
    assert.equal(once, `${base}${line}\n`);
    assert.equal(withHostsLine(once, line), once);
  });

  it('removing one run\'s line keeps another run\'s line for the same node name', () => {
    const a = hostsLine('kts-node-1', 'kruise-ts run-a');
    const b = hostsLine('kts-node-1', 'kruise-ts run-b');
    const both = withHostsLine(withHostsLine(base, a), b);
    const left = withoutHostsLine(both, a);
    assert.ok(left.includes(b));
    assert.ok(!left.includes(a));
    assert.ok(left.startsWith(base));
  });
});
