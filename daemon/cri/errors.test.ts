import assert from 'node:assert/strict';
import { test } from 'node:test';
import { status } from '@grpc/grpc-js';
import { criErrorFromGrpc } from './errors.js';

const grpcErr = (code: number, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details });

const cases: { name: string; err: unknown; method: string; kind: string; transient: boolean }[] = [
  { name: 'NOT_FOUND becomes not-found', err: grpcErr(status.NOT_FOUND, 'no such container'), method: 'RuntimeService/ContainerStatus', kind: 'not-found', transient: false },
  { name: 'UNAVAILABLE (socket gone) is transient', err: grpcErr(status.UNAVAILABLE, 'connect ENOENT'), method: 'RuntimeService/Version', kind: 'unavailable', transient: true },
  { name: 'DEADLINE_EXCEEDED is transient', err: grpcErr(status.DEADLINE_EXCEEDED, 'Deadline exceeded'), method: 'ImageService/PullImage', kind: 'deadline-exceeded', transient: true },
  { name: 'UNIMPLEMENTED is a permanent failure', err: grpcErr(status.UNIMPLEMENTED, 'unknown method'), method: 'RuntimeService/Version', kind: 'unimplemented', transient: false },
  { name: 'a pull rejected with 401 by the registry is unauthenticated', err: grpcErr(status.UNKNOWN, 'failed to pull: unexpected status: 401 Unauthorized'), method: 'ImageService/PullImage', kind: 'unauthenticated', transient: false },
  { name: 'an UNKNOWN failure of another RPC mentioning 401 stays unknown', err: grpcErr(status.UNKNOWN, 'exit 401'), method: 'RuntimeService/ExecSync', kind: 'unknown', transient: false },
  { name: 'a non-gRPC error is unknown', err: new Error('boom'), method: 'RuntimeService/Version', kind: 'unknown', transient: false },
];

for (const c of cases) {
  test(c.name, () => {
    const e = criErrorFromGrpc(c.err, c.method);
    assert.equal(e.kind, c.kind);
    assert.equal(e.transient, c.transient);
    assert.equal(e.method, c.method);
    assert.ok(e.message.startsWith(`${c.method}: `));
    assert.equal(e.cause, c.err);
  });
}
