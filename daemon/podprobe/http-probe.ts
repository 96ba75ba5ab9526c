// The httpGet handler (spec §6.4): one GET from the daemon's own network namespace (the daemon runs with
// hostNetwork, so the pod IP is reached as any node process reaches it), with Kubernetes' http prober rules:
// no keep-alive, no proxy, TLS unverified, one deadline over connect, redirects and body, body read ≤ 10 KiB.
import * as http from 'node:http';
import * as https from 'node:https';
import { dialErrorText } from './go-text.js';
import type { HandlerResult } from './handler-result.js';
import { joinHostPort, type ProbeRequest } from './http-request.js';

/** Kubernetes' maxRespBodyLength. */
export const MAX_BODY_BYTES = 10 * 1024;
/** Go's http.Client gives up after this many redirects. */
const MAX_REDIRECTS = 10;

interface Answer { status: number; location?: string; body: string }

function getOnce(url: URL, req: ProbeRequest, signal: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of req.headers) if (k !== 'Host') headers[k] = v;
    if (req.host) headers.Host = req.host;
    const mod = url.protocol === 'https:' ? https : http;
    const r = mod.request(url, { method: 'GET', headers, agent: false, signal, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks).toString('utf8') });
      res.on('data', (c: Buffer) => {
        const take = Math.min(c.length, MAX_BODY_BYTES - size);
        if (take > 0) { chunks.push(c.subarray(0, take)); size += take; }
        // What is past the limit is never read (Kubernetes' ReadAtMost): the connection is closed instead.
        if (size >= MAX_BODY_BYTES) { res.destroy(); done(); }
      });
      res.on('end', done);
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end();
  });
}

const portOf = (u: URL): string => u.port || (u.protocol === 'https:' ? '443' : '80');
const hostOf = (u: URL): string => u.hostname.replace(/^\[(.*)\]$/, '$1');

/** Go's client error text: `Get "<url>": dial tcp <addr>: connect: connection refused`, `…: context deadline exceeded …`. */
function errorText(url: URL, err: unknown, timedOut: boolean): string {
  const prefix = `Get ${JSON.stringify(url.href.replace(/#.*$/, ''))}`;
  if (timedOut) return `${prefix}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
  const code = (err as { code?: string })?.code ?? '';
  if (/^E[A-Z]+$/.test(code)) return `${prefix}: ${dialErrorText(joinHostPort(hostOf(url), Number(portOf(url))), err)}`;
  return `${prefix}: ${err instanceof Error ? err.message : String(err)}`;
}

/**
 * Sends `req` and judges the answer as Kubernetes' http prober: 2xx → success with the body; 3xx that was not
 * followed → warning `Probe terminated redirects, Response body: <body>`; else failure `HTTP probe failed with
 * statuscode: <code>`; no answer → failure with the client error. Redirects to the same hostname are followed
 * (at most 10), to another hostname not. Throws only for a URL Node cannot parse (an error: nothing is published).
 */
export async function httpProbe(req: ProbeRequest, timeoutMs: number): Promise<HandlerResult> {
  const timeout = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; timeout.abort(); }, timeoutMs);
  let url = new URL(req.url);
  const firstHost = url.hostname;
  try {
    for (let hops = 0; ; hops++) {
      let answer: Answer;
      try {
        answer = await getOnce(url, req, timeout.signal);
      } catch (err) {
        return { result: 'failure', message: errorText(url, err, timedOut) };
      }
      const { status, location, body } = answer;
      if (status >= 300 && status < 400 && location) {
        const next = new URL(location, url);
        if (next.hostname === firstHost) {
          if (hops + 1 >= MAX_REDIRECTS) return { result: 'failure', message: `Get ${JSON.stringify(next.href)}: stopped after 10 redirects` };
          url = next;
          continue;
        }
      }
      if (status >= 200 && status < 300) return { result: 'success', message: body };
      if (status >= 300 && status < 400) return { result: 'warning', message: `Probe terminated redirects, Response body: ${body}` };
      return { result: 'failure', message: `HTTP probe failed with statuscode: ${status}` };
    }
  } finally {
    clearTimeout(timer);
  }
}
