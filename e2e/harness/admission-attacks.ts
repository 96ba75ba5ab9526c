// The second review's worst inputs against the webhook, all at once, sent straight to the webhook pods (not through
// the apiserver), for e2e/admission-isolation.e2e.test.ts. Runs as a process of its own (admission-attacks-cli.ts) in
// a network namespace on the pod bridge, so it comes from an address of its own as an attacking pod would, and its TLS
// and payload work never delays the test's own measurements. Each attack keeps its requests in flight until `stop`,
// then closes everything it opened.
import { connect, type TLSSocket } from 'node:tls';
import { Agent, request } from 'node:https';

export interface Target { host: string; port: number }

/** What each attack saw, for the test's diagnostics: answers by status (or error), and the worst answer time. */
export type Tally = Record<string, { answers: Record<string, number>; worstMs: number }>;

const MIB = 1024 * 1024;
const review = (uid: string, kind: { group: string; version: string; kind: string }, resource: string, namespace: string, object: unknown) => JSON.stringify({
  apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
  request: { uid, kind, resource: { group: kind.group, version: kind.version, resource }, namespace, operation: 'CREATE', userInfo: { username: 'attacker' }, object },
});

// N-C1: a 12-byte quantity with an absurd exponent, in a CloneSet's template and a SidecarSet's container.
const BAD_CPU = '1e-100000000';
export const quantityCloneSet = (ns: string) => review('q-cs', { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet' }, 'clonesets', ns, {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'q', namespace: ns },
  spec: { replicas: 1, selector: { matchLabels: { app: 'q' } }, template: { metadata: { labels: { app: 'q' } }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: BAD_CPU } } }] } } },
});
export const quantitySidecarSet = () => review('q-ss', { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'SidecarSet' }, 'sidecarsets', '', {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'q' },
  spec: { selector: { matchLabels: { app: 'q' } }, containers: [{ name: 's', image: 'busybox', resources: { limits: { cpu: BAD_CPU } } }] },
});

// H1: an object-heavy pod review, 250k annotations (about 3.2 MiB).
export function objectHeavyPod(ns: string): string {
  const annotations: Record<string, string> = {};
  for (let i = 0; i < 250_000; i++) annotations[`a${i}`] = 'v';
  return review('heavy', { group: '', version: 'v1', kind: 'Pod' }, 'pods', ns, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'heavy', namespace: ns, annotations }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
}

// N-H2: a 1 MiB pod review whose reply is a patch of about 6 MB (12,000 env vars and subPathExpr mounts, shared by
// the share-volume SidecarSets the test creates, selecting `attack: share`).
export function bigReplyPod(ns: string): string {
  const env = Array.from({ length: 12_000 }, (_, i) => ({ name: `E${i}`, value: 'x' }));
  const volumeMounts = Array.from({ length: 12_000 }, (_, i) => ({ name: 'v', mountPath: `/m/${i}`, subPathExpr: `$(E${i})` }));
  return review('big-reply', { group: '', version: 'v1', kind: 'Pod' }, 'pods', ns, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'big', namespace: ns, labels: { attack: 'share' } },
    spec: { volumes: [{ name: 'v', emptyDir: {} }], containers: [{ name: 'c', image: 'busybox', env, volumeMounts }] } });
}

export interface Attacks { stop(): Promise<Tally> }

export const ATTACKS = ['quantity', 'heavy', 'convert', 'replies', 'idle'] as const;
export type AttackName = (typeof ATTACKS)[number];

export function startAttacks(targets: readonly Target[], ns: string, only: readonly AttackName[] = ATTACKS): Attacks {
  const on = (a: AttackName) => only.includes(a);
  const tally: Tally = {};
  let stopped = false;
  const sockets = new Set<TLSSocket>();
  const agents: Agent[] = [];
  const count = (name: string, answer: string, ms: number) => {
    const t = (tally[name] ??= { answers: {}, worstMs: 0 });
    t.answers[answer] = (t.answers[answer] ?? 0) + 1;
    t.worstMs = Math.max(t.worstMs, ms);
  };

  /** `n` requests of `body` to `path` kept in flight on each target until stop. */
  const loop = (name: string, path: string, body: string, n: number) => {
    for (const t of targets) {
      const agent = new Agent({ keepAlive: true, maxSockets: n, rejectUnauthorized: false });
      agents.push(agent);
      const one = () => {
        if (stopped) return;
        const t0 = Date.now();
        const req = request({ host: t.host, port: t.port, path, method: 'POST', agent, timeout: 60_000, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', () => { count(name, String(res.statusCode), Date.now() - t0); one(); });
        });
        req.on('error', (err) => { count(name, (err as NodeJS.ErrnoException).code ?? err.message, Date.now() - t0); setTimeout(one, 200); });
        req.end(body);
      };
      for (let i = 0; i < n; i++) one();
    }
  };

  /** A TLS connection to `t` that writes `head` and then whatever `then` does with it. */
  const open = (t: Target, then: (s: TLSSocket) => void) => {
    const s = connect({ host: t.host, port: t.port, rejectUnauthorized: false }, () => then(s));
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
    return s;
  };

  // N-C1, both routes of each kind, 2 in flight per route and target.
  if (on('quantity')) {
    loop('quantity CloneSet', '/mutate-apps-kruise-io-v1alpha1-cloneset', quantityCloneSet(ns), 2);
    loop('quantity SidecarSet', '/mutate-apps-kruise-io-sidecarset', quantitySidecarSet(), 2);
  }
  // H1: 16 object-heavy reviews in flight per target.
  if (on('heavy')) loop('object-heavy 3 MiB review', '/mutate-pod', objectHeavyPod(ns), 16);
  // N-H3: two /convert bodies per target, 32 MiB − 1 of 32 MiB sent, then stalled.
  const chunk = Buffer.alloc(MIB, 0x20);
  if (on('convert')) for (const t of targets) for (let i = 0; i < 2; i++) {
    open(t, (s) => {
      s.write(`POST /convert HTTP/1.1\r\nHost: ${t.host}\r\nContent-Type: application/json\r\nContent-Length: ${32 * MIB}\r\n\r\n`);
      let sent = 0;
      const more = () => {
        while (!stopped && sent < 32 * MIB - 1) {
          const n = Math.min(chunk.length, 32 * MIB - 1 - sent);
          sent += n;
          if (!s.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void s.once('drain', more);
        }
      };
      more();
    });
  }
  // N-H2: 70 connections per target, each sends the big-reply review and never reads.
  const big = on('replies') ? bigReplyPod(ns) : '';
  if (on('replies')) for (const t of targets) for (let i = 0; i < 70; i++) {
    open(t, (s) => {
      s.pause();
      s.write(`POST /mutate-pod HTTP/1.1\r\nHost: ${t.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(big)}\r\n\r\n`);
      s.write(big);
    });
  }
  // N-H4: 1,000 idle keep-alive connections per target from this one source, each asking for a 404 every 20 s.
  const idle = (t: Target) => open(t, (s) => {
    const ask = () => { if (!stopped && !s.destroyed) s.write(`GET /healthz HTTP/1.1\r\nHost: ${t.host}\r\n\r\n`); };
    s.on('data', () => {});
    ask();
    const timer = setInterval(ask, 20_000);
    s.on('close', () => clearInterval(timer));
  });
  let opened = on('idle') ? 0 : 1000;
  const idleTimer = setInterval(() => {
    for (let i = 0; i < 50 && opened < 1000; i++, opened++) for (const t of targets) idle(t);
    if (opened >= 1000) clearInterval(idleTimer);
  }, 100);

  return {
    async stop() {
      stopped = true;
      clearInterval(idleTimer);
      for (const s of sockets) s.destroy();
      for (const a of agents) a.destroy();
      if (on('idle')) tally['idle connections opened per target'] = { answers: { opened }, worstMs: 0 };
      return tally;
    },
  };
}
