// A minimal apiserver for Leases over HTTP on 127.0.0.1, run in its own worker thread so that it keeps answering
// while the test's main thread is blocked (controller/lease-thread.test.ts). GET, POST and PUT with resourceVersion
// checks; it records when each write happened. Messages: it posts { port } once listening; `report` answers
// { writes: [{ at, holder, renewTime }] }; `close` stops it.
import { createServer } from 'node:http';
import { parentPort } from 'node:worker_threads';

interface Lease { metadata: { name: string; namespace: string; resourceVersion?: string }; spec?: { holderIdentity?: string; renewTime?: string } }

if (parentPort) {
  const port = parentPort;
  const leases = new Map<string, Lease>();
  const writes: { at: number; holder?: string; renewTime?: string }[] = [];
  let rv = 1;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/([^/]+)\/leases(?:\/([^/?]+))?/.exec(req.url ?? '');
      const send = (code: number, body: unknown) => { res.writeHead(code, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
      const status = (code: number, reason: string) => send(code, { kind: 'Status', code, reason, message: reason });
      if (!m) return status(404, 'NotFound');
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Lease) : undefined;
      const key = `${m[1]}/${m[2] ?? body?.metadata.name}`;
      const cur = leases.get(key);
      const store = (l: Lease) => {
        const saved = { ...l, metadata: { ...l.metadata, resourceVersion: String(++rv) } };
        leases.set(key, saved);
        writes.push({ at: Date.now(), holder: saved.spec?.holderIdentity, renewTime: saved.spec?.renewTime });
        return saved;
      };
      if (req.method === 'GET') return cur ? send(200, cur) : status(404, 'NotFound');
      if (req.method === 'POST') return cur ? status(409, 'AlreadyExists') : send(201, store(body!));
      if (req.method === 'PUT') {
        if (!cur) return status(404, 'NotFound');
        if (body?.metadata.resourceVersion !== cur.metadata.resourceVersion) return status(409, 'Conflict');
        return send(200, store(body!));
      }
      return status(405, 'MethodNotAllowed');
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const addr = server.address();
    port.postMessage({ port: typeof addr === 'object' && addr ? addr.port : 0 });
  });
  port.on('message', (m: string) => {
    if (m === 'report') port.postMessage({ writes });
    if (m === 'close') { server.closeAllConnections(); server.close(); port.close(); }
  });
}
