// What a request holds from the byte budget, from its first body byte until its response is done (review N-H2): a
// reply is bytes in this process until the socket has taken them, and a client that never reads keeps them here. So
// the reply's bytes join the body's in the request's Charge, released only when the response closes (after 'finish',
// the bytes handed to the kernel, or when the connection dies), and a reply whose socket does not drain within a short
// write timeout is destroyed with its connection.
//
// The seam for the worker pool: the main thread opens the charge (chargeRequest), reads bytes into it (body.ts
// readBody), and for the reply bytes it gets back calls chargeReply, sends them, then armWriteTimeout; where those
// bytes were computed does not matter here.
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
 * Adds the reply's `bytes` to the request's charge; false (nothing taken) when the budget or a share of it cannot
 * take them: the caller then answers a small 503 instead, which client-go retries. After sending the reply, the
 * caller calls armWriteTimeout.
 */
export function chargeReply(charge: Charge, bytes: number): boolean {
  return charge.tryAdd(bytes);
}

/**
 * Call right after the reply is sent. If the socket has not taken all of it (a reader that does not read), destroys
 * the response and its connection unless it has been handed to the kernel within `ms`: the apiserver reads its answer
 * as it arrives, so a reply still queued after that has a reader that stopped reading. The connection's inactivity
 * timeout does not cover it: a client reading one byte a second is never inactive. A reply the socket took at once
 * (every ordinary one: the kernel takes a few MiB) needs no timer.
 */
export function armWriteTimeout(res: ServerResponse, ms: number): void {
  if (res.closed || res.writableFinished || (res.writableEnded && res.socket !== null && res.socket.writableLength === 0)) return;
  const timer = setTimeout(() => {
    if (!res.writableFinished) res.destroy();
  }, ms);
  timer.unref();
  res.on('close', () => clearTimeout(timer));
}
