import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bridgeName, confList, gatewayAddress, pickSubnet, SERVICE_CIDR } from './network.js';

describe('pod network choice', () => {
  it('skips 10.88.N.0/24 subnets another run already routes and wraps around', () => {
    const routes = 'default via 192.0.2.1 dev eth0\n10.88.5.0/24 dev kts1 proto kernel scope link src 10.88.5.1\n10.88.6.0/24 dev kts2 scope link\n';
    assert.equal(pickSubnet(routes, 5), '10.88.7.0/24');
    assert.equal(pickSubnet(routes, 4), '10.88.4.0/24');
    assert.equal(pickSubnet('10.88.255.0/24 dev x\n', 255), '10.88.0.0/24');
  });

  it('fails clearly when every subnet is taken', () => {
    const all = Array.from({ length: 256 }, (_, n) => `10.88.${n}.0/24 dev b${n}`).join('\n');
    assert.throws(() => pickSubnet(all, 0), /no free 10\.88\.N\.0\/24/);
  });

  it('bridge names fit the 15-byte interface name limit', () => {
    assert.ok(bridgeName(4_194_304).length <= 15);
    assert.notEqual(bridgeName(1234), bridgeName(1235));
  });

  it('the gateway is the subnet\'s first address (host-local\'s default), where the apiserver binds', () => {
    assert.equal(gatewayAddress({ subnet: '10.88.17.0/24' }), '10.88.17.1');
  });

  it('the conflist keeps pod traffic on the node: no masquerade, only the Service range routed, per-run IPAM files', () => {
    const c = JSON.parse(confList({ name: 'kts-1', bridge: 'kts1', subnet: '10.88.1.0/24', ipamDir: '/tmp/x/ipam' }));
    const [bridge] = c.plugins;
    assert.equal(c.name, 'kts-1');
    assert.equal(bridge.type, 'bridge');
    assert.equal(bridge.ipMasq, false);
    assert.deepEqual(bridge.ipam.routes, [{ dst: SERVICE_CIDR }]);
    assert.equal(bridge.ipam.dataDir, '/tmp/x/ipam');
    assert.deepEqual(bridge.ipam.ranges, [[{ subnet: '10.88.1.0/24' }]]);
  });
});
