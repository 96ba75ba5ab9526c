// What a request holds from the byte budget, from its first body byte until its response is done (review N-H2): a
// reply is bytes in this process until the socket has taken them, and a client that never reads keeps them here. So
// the reply's bytes join the body's in the request's Charge, released only when the response closes (after 'finish',
// the bytes handed to the kernel, or when the connection dies), and a reply whose socket does not drain within a short
// write timeout is destroyed with its connection.
//
// The seam for the worker pool: the main thread reads bytes (body.ts readBody) into the charge opened here, and
// writes the reply bytes it gets back through chargeReply; where those bytes were computed does not matter here.
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sourceAddress } from '../source-address.js';
import type { BudgetGroup, ByteBudget, Charge } from './byte-budget.js';

/**
 * Opens the charge of one request from its source address (the apiserver's, a proxy's or node's through kube-proxy,
 * or a pod's) in `group` (e.g. /convert), and releases it when the response
 * closes, whichever way: answered, refused, timed out, or the client gone.
 */
export function chargeRequest(request: FastifyRequest, reply: FastifyReply, budget: ByteBudget, group?: BudgetGroup): Charge {
  const charge = budget.charge(sourceAddress(request.raw.socket), group);
  // 'close' is emitted once per response (after 'finish', or when the connection dies): on, not once's wrapper.
  if (reply.raw.closed) charge.release();
  else reply.raw.on('close', () => charge.release());
  return charge;
}

/**
 * Adds the reply's `bytes` to the request's charge and arms the write timeout; false (nothing taken) when the budget or
 * a share of it cannot take them: the caller then answers a small 503 instead, which client-go retries.
 */
export function chargeReply(reply: FastifyReply, charge: Charge, bytes: number, writeTimeoutMs: number): boolean {
  if (!charge.tryAdd(bytes)) return false;
  armWriteTimeout(reply.raw, writeTimeoutMs);
  return true;
}

/**
 * Destroys the response (and its connection) if it has not been handed to the kernel within `ms`: the apiserver reads
 * its answer as it arrives, so a reply still queued after that has a reader that stopped reading. The connection's
 * inactivity timeout does not cover it: a client reading one byte a second is never inactive.
 */
export function armWriteTimeout(res: ServerResponse, ms: number): void {
  if (res.closed) return;
  const timer = setTimeout(() => {
    if (!res.writableFinished) res.destroy();
  }, ms);
  timer.unref();
  // 'close' follows 'finish' at once on a drained reply; one listener per response is enough.
  res.on('close', () => clearTimeout(timer));
}
