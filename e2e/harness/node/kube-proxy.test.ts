import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jumpDeletions, kubeChains, kubeProxyConfig } from './kube-proxy.js';

const dump = [
  '*filter', ':INPUT ACCEPT [0:0]', ':OUTPUT ACCEPT [0:0]', ':KUBE-FIREWALL - [0:0]', ':KUBE-OLD - [0:0]',
  '-A INPUT -j KUBE-FIREWALL', '-A OUTPUT -j KUBE-FIREWALL', '-A INPUT -j KUBE-OLD', '-A KUBE-FIREWALL -j KUBE-OLD', 'COMMIT',
  '*nat', ':OUTPUT ACCEPT [0:0]', ':KUBE-SERVICES - [0:0]', '-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES', 'COMMIT', '',
].join('\n');

describe('kube-proxy on the real node', () => {
  it('finds the KUBE-* chains of every table', () => {
    assert.deepEqual(kubeChains(dump), ['filter/KUBE-FIREWALL', 'filter/KUBE-OLD', 'nat/KUBE-SERVICES']);
  });

  it('deletes only the jumps into chains of this run, from chains that stay', () => {
    const ours = new Set(['filter/KUBE-FIREWALL', 'nat/KUBE-SERVICES']);
    assert.equal(jumpDeletions(dump, ours), [
      '*filter', '-D INPUT -j KUBE-FIREWALL', '-D OUTPUT -j KUBE-FIREWALL', 'COMMIT',
      '*nat', '-D OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES', 'COMMIT', ''].join('\n'));
    assert.equal(jumpDeletions(dump, new Set()), '');
  });

  it('listens on loopback, keeps NodePorts off eth0, masquerades Service traffic and leaves conntrack sysctls alone', () => {
    const c = kubeProxyConfig({ kubeconfig: '/k', node: 'kts-node-1', net: { subnet: '10.88.7.0/24' }, healthzPort: 1, metricsPort: 2 });
    assert.equal(c.mode, 'iptables');
    assert.equal(c.healthzBindAddress, '127.0.0.1:1');
    assert.equal(c.metricsBindAddress, '127.0.0.1:2');
    assert.deepEqual(c.nodePortAddresses, ['10.88.7.1/32']);
    assert.deepEqual(c.iptables, { masqueradeAll: true, localhostNodePorts: false, minSyncPeriod: '0s', syncPeriod: '30s' });
    assert.deepEqual(c.conntrack, { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' });
    assert.equal(c.clusterCIDR, '10.88.7.0/24');
  });
});
