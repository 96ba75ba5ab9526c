// Our cri.proto must stay wire-identical to upstream k8s.io/cri-api runtime.v1: every message, field, enum
// value and RPC we declare has to exist upstream with the same name, number and type.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import protobuf from 'protobufjs';
import { upstreamCriProtoPath } from './upstream-proto.js';

const OURS = new URL('./cri.proto', import.meta.url);

/** Upstream has carried gogo imports and file options in some releases; neither matters for the wire shape. */
function parseProto(text: string): protobuf.Root {
  const cleaned = text
    .split('\n')
    .filter((line) => !/^\s*(import|option)\s/.test(line))
    .join('\n');
  const root = protobuf.parse(cleaned, { keepCase: true }).root;
  root.resolveAll();
  return root;
}

function allOf<T extends protobuf.ReflectionObject>(ns: protobuf.NamespaceBase, kind: new (...a: any[]) => T): T[] {
  const out: T[] = [];
  for (const nested of ns.nestedArray) {
    if (nested instanceof kind) out.push(nested);
    if (nested instanceof protobuf.Namespace) out.push(...allOf(nested, kind));
  }
  return out;
}

/** A field's wire shape: resolved type name (or scalar), label, and map key type. */
function shape(f: protobuf.Field): string {
  const type = f.resolvedType ? f.resolvedType.fullName : f.type;
  const keyType = f instanceof protobuf.MapField ? `map<${f.keyType},` : '';
  return `${f.id} ${f.repeated ? 'repeated ' : ''}${keyType}${type}${keyType ? '>' : ''}`;
}

const ours = parseProto(readFileSync(OURS, 'utf8'));
const upstream = parseProto(readFileSync(upstreamCriProtoPath(), 'utf8'));

test('our proto declares the runtime.v1 package', () => {
  assert.ok(ours.lookup('runtime.v1'), 'package runtime.v1 missing');
});

test('every field of every message matches upstream by name, number, type, label and map key', () => {
  const messages = allOf(ours, protobuf.Type);
  assert.ok(messages.length > 20, `suspiciously few messages parsed: ${messages.length}`);
  for (const msg of messages) {
    const up = upstream.lookupType(msg.fullName);
    for (const field of msg.fieldsArray) {
      const upField = up.fields[field.name];
      assert.ok(upField, `${msg.fullName}.${field.name} does not exist upstream`);
      assert.equal(shape(field), shape(upField), `${msg.fullName}.${field.name}`);
    }
  }
});

test('every enum value matches upstream', () => {
  for (const en of allOf(ours, protobuf.Enum)) {
    const up = upstream.lookupEnum(en.fullName);
    for (const [name, value] of Object.entries(en.values)) {
      assert.equal(up.values[name], value, `${en.fullName}.${name}`);
    }
  }
});

test('every RPC exists upstream with the same request and response types and no streaming', () => {
  const services = allOf(ours, protobuf.Service);
  assert.deepEqual(services.map((s) => s.fullName).sort(), ['.runtime.v1.ImageService', '.runtime.v1.RuntimeService']);
  for (const svc of services) {
    const up = upstream.lookup(svc.fullName) as protobuf.Service;
    for (const m of svc.methodsArray) {
      const upM = up.methods[m.name];
      assert.ok(upM, `${svc.fullName}/${m.name} does not exist upstream`);
      assert.equal(m.resolvedRequestType!.fullName, upM.resolvedRequestType!.fullName, `${m.name} request`);
      assert.equal(m.resolvedResponseType!.fullName, upM.resolvedResponseType!.fullName, `${m.name} response`);
      assert.equal(!!m.requestStream || !!m.responseStream, !!upM.requestStream || !!upM.responseStream, `${m.name} streaming`);
    }
  }
});

test('the daemon-used RPCs are all present', () => {
  const names = allOf(ours, protobuf.Service).flatMap((s) => s.methodsArray.map((m) => `${s.name}/${m.name}`));
  assert.deepEqual(names.sort(), [
    'ImageService/ImageFsInfo', 'ImageService/ImageStatus', 'ImageService/ListImages', 'ImageService/PullImage',
    'RuntimeService/ContainerStatus', 'RuntimeService/ExecSync', 'RuntimeService/ListContainers',
    'RuntimeService/StopContainer', 'RuntimeService/Version',
  ]);
});
