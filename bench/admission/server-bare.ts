// The admission benchmark's floor: plain Fastify over the same TLS with an allow-all /mutate-pod (TLS + JSON parse +
// reply, nothing of kruise-ts). Its bundle holds Fastify alone, so its heap is not the kruise server's.
import Fastify from 'fastify';
import { readTls, serve } from './serve.js';

const bare = Fastify({ https: await readTls() });
bare.post('/mutate-pod', async (req) => {
  const body = req.body as { apiVersion: string; request: { uid: string } };
  return { apiVersion: body.apiVersion, kind: 'AdmissionReview', response: { uid: body.request.uid, allowed: true } };
});
await serve(bare);
