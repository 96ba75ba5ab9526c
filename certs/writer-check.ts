// Which certificate writer fits which deployment. The fs writer keeps its CA in a directory private to one process,
// with no optimistic concurrency: two replicas behind a Service would each mint a CA and overwrite the other's
// caBundle in turn (every admission to the other replica then fails). With WEBHOOK_HOST (url mode) the apiserver
// calls one address, i.e. one process.

/** Why `writer` cannot be used here, or null. */
export function certWriterProblem(writer: 'secret' | 'fs' | 'external', webhookHost: string | undefined): string | null {
  if (writer === 'fs' && !webhookHost) {
    return 'WEBHOOK_CERT_WRITER=fs serves one process only and needs WEBHOOK_HOST (url mode); behind a Service, where more than one replica may run, use secret (the default) or external';
  }
  return null;
}
