// The PodProbeMarker webhook vectors of OpenKruise v1.9.0 (probe_validating_test.go; spec/node-probes-and-sidecar-
// lifecycle.md §3.4), with the rendered messages of §3.2-§3.3.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodContainerProbe, PodProbeMarker } from '../../api/pod-probe-marker.js';
import { formatViolation, formatViolations } from '../../errors.js';
import { validatePodProbeMarker } from './pod-probe-marker.js';

const healthy = (): PodContainerProbe => ({
  name: 'healthy', containerName: 'main',
  probe: { exec: { command: ['/bin/sh', '-c', '/healthy.sh'] } },
  podConditionType: 'game.kruise.io/healthy',
  markerPolicy: [
    { state: 'Succeeded', labels: { 'server-healthy': 'true' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '10' } },
    { state: 'Failed', labels: { 'server-healthy': 'false' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-10' } },
  ],
});
const base = (): PodProbeMarker => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name: 'ppm-1', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'test' } }, probes: [healthy()] },
});
const errors = (p: PodProbeMarker, old?: PodProbeMarker) => validatePodProbeMarker(p, old).map(formatViolation);

describe('validatePodProbeMarker: upstream vectors (probe_validating_test.go)', () => {
  const cases: { name: string; edit: (p: PodProbeMarker) => void; want: number; first?: string }[] = [
    { name: 'test1 selector nil', edit: (p) => { delete p.spec!.selector; }, want: 1, first: 'spec.selector: Invalid value: null: empty Selector is not valid for PodProbeMarker.' },
    { name: 'test2 probes nil', edit: (p) => { delete p.spec!.probes; }, want: 1, first: 'spec.probes: Invalid value: null: empty probes is not valid for PodProbeMarker.' },
    { name: 'test3 duplicate name stops', edit: (p) => { p.spec!.probes!.push({ name: 'healthy', containerName: 'other', probe: {} }); }, want: 1,
      first: 'spec.probes: Invalid value: "healthy": probe name must be unique in PodProbeMarker.' },
    { name: 'test4 an httpGet probe', edit: (p) => { p.spec!.probes!.push({ name: 'check', containerName: 'other', probe: { httpGet: { path: '/index.html', scheme: 'HTTP', port: 80 } }, podConditionType: 'game.kruise.io/check' }); }, want: 0 },
    { name: 'test5 exec without command', edit: (p) => { p.spec!.probes!.push({ name: 'check', containerName: 'other', probe: { exec: {} }, podConditionType: 'game.kruise.io/check' }); }, want: 1,
      first: 'spec.probe.exec.command: Required value' },
    { name: 'test6 state Unknown', edit: (p) => { p.spec!.probes![0]!.markerPolicy = [{ state: 'Unknown', labels: { a: 'b' } }]; }, want: 1,
      first: "spec.markerPolicy.state: Required value: marker policy state must be 'True' or 'False'" },
    { name: 'test7 bad label key: prefix and name part', edit: (p) => { p.spec!.probes![0]!.markerPolicy![0]!.labels = { 'server-/$healthy': 'true' }; }, want: 2 },
    { name: 'test8 probe name Initialized', edit: (p) => { p.spec!.probes![0]!.name = 'Initialized'; }, want: 1, first: 'spec.probes: Invalid value: "Initialized": probe name can\'t be Initialized' },
    { name: 'test9 podConditionType #5invalid', edit: (p) => { p.spec!.probes![0]!.podConditionType = '#5invalid'; }, want: 1,
      first: 'spec: Invalid value: "#5invalid": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')' },
    { name: 'test10 empty name', edit: (p) => { p.spec!.probes![0]!.name = ''; }, want: 1, first: 'spec.probes: Invalid value: "": probe name can\'t be empty in PodProbeMarker.' },
    { name: 'test11 empty containerName', edit: (p) => { p.spec!.probes![0]!.containerName = ''; }, want: 1, first: 'spec.probes: Invalid value: "": probe containerName can\'t be empty in PodProbeMarker.' },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const p = base();
      tc.edit(p);
      const got = errors(p);
      assert.equal(got.length, tc.want, got.join('\n'));
      if (tc.first) assert.equal(got[0], tc.first);
    });
  }
  it('the base object is valid', () => assert.deepEqual(errors(base()), []));
});

describe('validatePodProbeMarker: checks in upstream order (§3.2)', () => {
  const one = (probe: Partial<PodContainerProbe>) => { const p = base(); p.spec!.probes = [{ ...healthy(), ...probe }]; return errors(p); };
  it("a '#' in the name stops before anything else", () => assert.deepEqual(one({ name: 'a#b', containerName: '' }), ["spec.probes: Invalid value: \"a#b\": probe name can't contains '#'."]));
  it('no condition type and no policy stops, after the probe errors', () => {
    assert.deepEqual(one({ podConditionType: undefined, markerPolicy: undefined, probe: {} }), [
      'spec.probe: Required value: must specify a handler type',
      errors((() => { const p = base(); p.spec!.probes = [{ name: 'healthy', containerName: 'main', probe: {} }]; return p; })())[1]!,
    ]);
    assert.match(one({ podConditionType: undefined, markerPolicy: undefined })[0]!, /^spec\.probes: Invalid value: .*: podConditionType and markerPolicy cannot be empty at the same time$/);
  });
  it('a repeated condition type stops at the second probe', () => {
    const p = base();
    p.spec!.probes!.push({ ...healthy(), name: 'other' });
    assert.deepEqual(errors(p), ['spec.probes: Invalid value: "game.kruise.io/healthy": podConditionType game.kruise.io/healthy must be unique in podProbeMarker']);
  });
  it('podConditionType Ready is accepted (only the probe name is reserved, §11)', () => assert.deepEqual(one({ podConditionType: 'Ready' }), []));
  it('a repeated policy state stops; a policy without labels and annotations is refused', () => {
    assert.deepEqual(one({ markerPolicy: [{ state: 'Succeeded', labels: { a: 'b' } }, { state: 'Succeeded', labels: { a: 'c' } }] }),
      ['spec.markerPolicy: Invalid value: "Succeeded": marker policy state must be unique.']);
    assert.deepEqual(one({ markerPolicy: [{ state: 'Failed' }] }), ["spec.markerPolicy: Required value: marker policy annotations or labels can't be both empty"]);
  });
  it('annotation keys are qualified names; label values label values', () => {
    assert.deepEqual(one({ markerPolicy: [{ state: 'Failed', labels: { a: 'not valid' }, annotations: { 'a/b/c': 'x' } }] }).map((e) => e.slice(0, 56)), [
      'spec.markerPolicy.labels: Invalid value: "not valid": a ',
      'spec.markerPolicy.annotations: Invalid value: "a/b/c": a',
    ]);
  });
  it('an empty selector, and one that does not convert', () => {
    const p = base();
    p.spec!.selector = {};
    assert.deepEqual(errors(p).map((e) => e.replace(/Invalid value: .*: /, 'Invalid value: …: ')), ['spec.selector: Invalid value: …: empty selector is not valid for podProbeMarker.']);
    p.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] };
    assert.deepEqual(errors(p).map((e) => e.split(':')[0]), ['spec.selector.matchExpressions[0].values', 'spec.selector.selector']);
  });
  it('UPDATE: the selector is immutable (absent matchExpressions differ from an empty list), nothing else is', () => {
    const old = base();
    const next = base();
    next.spec!.probes![0]!.probe = { tcpSocket: { port: 8080 } };
    assert.deepEqual(errors(next, old), []);
    next.spec!.selector = { matchLabels: { app: 'test' }, matchExpressions: [] };
    assert.deepEqual(errors(next, old), ['selector: Invalid value: {"matchLabels":{"app":"test"},"matchExpressions":[]}: selector must be immutable']);
    next.spec!.selector = { matchLabels: { app: 'test' }, matchExpressions: null as never };
    assert.deepEqual(errors(next, old), []);
  });
  it('one error alone, several as a bracketed list', () => {
    const p = base();
    p.spec!.probes![0]!.probe = { initialDelaySeconds: -1, periodSeconds: -2 };
    assert.equal(formatViolations(validatePodProbeMarker(p, undefined)),
      '[spec.probe: Required value: must specify a handler type, spec.probe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0, spec.probe.periodSeconds: Invalid value: -2: must be greater than or equal to 0]');
  });
});

describe('validatePodProbeMarker: handlers (TestValidateHandler, TestValidateHTTPGetAction)', () => {
  const probeErrors = (probe: object) => { const p = base(); p.spec!.probes![0]!.probe = probe; return errors(p); };
  const pass: [string, object][] = [
    ['exec echo', { exec: { command: ['echo'] } }],
    ['tcp 8000', { tcpSocket: { port: 8000 } }],
    ['tcp container-port', { tcpSocket: { port: 'container-port' } }],
    ['grpc with exec runs exec', { exec: { command: ['echo'] }, grpc: { port: 9000 } }],
  ];
  for (const [name, probe] of pass) it(`passes: ${name}`, () => assert.deepEqual(probeErrors(probe), []));
  const fail: [string, object, number?][] = [
    ['no handler', {}],
    ['grpc alone is no handler', { grpc: { port: 9000 } }],
    ['exec without command', { exec: { command: [] } }],
    ['tcp container-port-v2 (17 chars)', { tcpSocket: { port: 'container-port-v2' } }],
    ['tcp -1', { tcpSocket: { port: -1 } }],
    ['httpGet path "" port 0', { httpGet: { path: '', port: 0, scheme: 'HTTP' } }, 2],
    ['httpGet /foo 65536 with host', { httpGet: { path: '/foo', port: 65536, host: 'localhost', scheme: 'HTTP' } }, 2],
    ['httpGet port ""', { httpGet: { path: '/', port: '', scheme: 'HTTP' } }],
    ['exec + httpGet', { exec: { command: ['echo'] }, httpGet: { path: '/', port: 80, scheme: 'HTTP' } }],
    ['all three', { exec: { command: ['echo'] }, httpGet: { path: '/', port: 80, scheme: 'HTTP' }, tcpSocket: { port: 80 } }, 2],
  ];
  for (const [name, probe, n] of fail) {
    it(`fails: ${name}`, () => {
      const got = probeErrors(probe);
      assert.ok(got.length >= 1, 'no error');
      if (n) assert.equal(got.length, n, got.join('\n'));
    });
  }
  it('a second and third handler are Forbidden at their own paths', () => {
    assert.deepEqual(probeErrors({ exec: { command: ['echo'] }, httpGet: { path: '/', port: 80, scheme: 'HTTP' }, tcpSocket: { port: 80, host: 'x' } }),
      ['spec.probe.httpGet: Forbidden: may not specify more than 1 handler type', 'spec.probe.tcpSocket: Forbidden: may not specify more than 1 handler type']);
  });
  const http = (over: object) => probeErrors({ httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP', ...over } });
  const counts: [string, object, number][] = [
    ['valid', {}, 0], ['path ""', { path: '' }, 1], ['port 65536', { port: 65536 }, 1], ['port invalid-port-name-!@#', { port: 'invalid-port-name-!@#' }, 2],
    ['scheme FTP', { scheme: 'FTP' }, 1], ['header Invalid Header:Name', { httpHeaders: [{ name: 'Invalid Header:Name', value: 'v' }] }, 1],
    ['path "" + 99999 + FTP + Invalid:Header', { path: '', port: 99999, scheme: 'FTP', httpHeaders: [{ name: 'Invalid:Header', value: 'v' }] }, 4],
    ['path path%notvalid', { path: 'path%notvalid' }, 1], ['host 127.0.0.1', { host: '127.0.0.1' }, 1],
    ['scheme empty (no defaulting, §11)', { scheme: undefined }, 1],
  ];
  for (const [name, over, n] of counts) it(`httpGet ${name}: ${n} error(s)`, () => assert.equal(http(over).length, n, http(over).join('\n')));
  it('messages of the httpGet rules', () => {
    assert.deepEqual(http({ host: 'h', path: ':x', scheme: '' }), [
      'spec.probe.httpGet.host: Invalid value: "h": host field in probes is not allowed',
      'spec.probe.httpGet.path: Invalid value: ":x": must be a valid URL path',
      'spec.probe.httpGet.scheme: Unsupported value: "": supported values: "HTTP", "HTTPS"',
    ]);
    assert.deepEqual(probeErrors({ tcpSocket: { port: 70000, host: 'h' } }), [
      'spec.probe.tcpSocket.host: Invalid value: "h": host field in probes is not allowed',
      'spec.probe.tcpSocket.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ]);
  });
  it('port names: abc ok; "", 16 characters, -1 refused', () => {
    assert.deepEqual(probeErrors({ tcpSocket: { port: 'abc' } }), []);
    for (const port of ['', 'aaaaabbbbbcccccd', -1]) assert.ok(probeErrors({ tcpSocket: { port } }).length > 0, String(port));
  });
});
