// A deadline on every request of client-node's clients. In client-node 1.4.0 a request is `fetch` with no signal
// (gen/http/isomorphic-fetch.js), so a silent apiserver keeps the call pending forever; Watch's own 30 s
// AbortSignal.timeout is overwritten before use (watch.js). Every generated API and KubernetesObjectApi sends
// through `configuration.httpApi`, so one wrapper there covers them all (makeKube).
import { IsomorphicFetchHttpLibrary, ResponseContext, wrapHttpLibrary, type HttpLibrary } from '@kubernetes/client-node';
import { KubeTimeoutError } from './rest.js';

/**
 * `inner` with a deadline of `timeoutMs` per request, from sending it to the last byte of the answer (the body is
 * read here, so a server that sends headers and then stalls fails too). A caller's own signal still aborts early.
 */
export function timeoutHttpLibrary(timeoutMs: number, inner: HttpLibrary = new IsomorphicFetchHttpLibrary()): HttpLibrary {
  return wrapHttpLibrary({
    async send(request) {
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), timeoutMs);
      const own = request.getSignal();
      request.setSignal(own ? AbortSignal.any([own, deadline.signal]) : deadline.signal);
      try {
        const res = await inner.send(request).toPromise();
        const body = await res.body.binary();
        return new ResponseContext(res.httpStatusCode, res.headers, { text: () => Promise.resolve(body.toString('utf8')), binary: () => Promise.resolve(body) });
      } catch (err) {
        if (!deadline.signal.aborted) throw err;
        const url = new URL(request.getUrl());
        throw new KubeTimeoutError(`${request.getHttpMethod()} ${url.pathname}: no answer within ${timeoutMs} ms`, { cause: err });
      } finally {
        clearTimeout(timer);
      }
    },
  });
}
