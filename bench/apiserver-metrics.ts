// The kube-apiserver's own /metrics, read by the benchmarks: requests by verb and resource, their latency, and the
// time spent calling admission webhooks.

export interface ApiserverMetrics {
  /** `VERB resource[/subresource]` → requests, summed over codes (watches count once, when they open). */
  requests: Map<string, number>;
  /** webhook name → [seconds summed, calls]. */
  webhooks: Map<string, [number, number]>;
  /** `VERB resource` → [seconds summed, requests]: the apiserver's own request latency. */
  latency: Map<string, [number, number]>;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\} (\S+)$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** One labelled sample line of Prometheus text (`name{k="v",…} value`), or undefined for anything else. */
export function parseSample(line: string): { name: string; labels: Record<string, string>; value: number } | undefined {
  const m = LINE.exec(line);
  if (!m) return undefined;
  const labels: Record<string, string> = {};
  for (const l of m[2]!.matchAll(LABEL)) labels[l[1]!] = l[2]!;
  return { name: m[1]!, labels, value: Number(m[3]) };
}

/** The few apiserver series the report uses, from Prometheus text. */
export function parseApiserverMetrics(text: string): ApiserverMetrics {
  const requests = new Map<string, number>();
  const webhooks = new Map<string, [number, number]>();
  const latency = new Map<string, [number, number]>();
  const addPair = (m: Map<string, [number, number]>, key: string, i: 0 | 1, v: number) => {
    const e = m.get(key) ?? [0, 0];
    e[i] += v;
    m.set(key, e);
  };
  for (const line of text.split('\n')) {
    if (!line.startsWith('apiserver_')) continue;
    const sample = parseSample(line);
    if (!sample) continue;
    const { name, labels, value } = sample;
    const resource = `${labels.resource ?? ''}${labels.subresource ? `/${labels.subresource}` : ''}`;
    switch (name) {
      case 'apiserver_request_total':
        requests.set(`${labels.verb} ${resource}`, (requests.get(`${labels.verb} ${resource}`) ?? 0) + value);
        break;
      case 'apiserver_request_duration_seconds_sum': addPair(latency, `${labels.verb} ${resource}`, 0, value); break;
      case 'apiserver_request_duration_seconds_count': addPair(latency, `${labels.verb} ${resource}`, 1, value); break;
      case 'apiserver_admission_webhook_admission_duration_seconds_sum': addPair(webhooks, labels.name ?? '?', 0, value); break;
      case 'apiserver_admission_webhook_admission_duration_seconds_count': addPair(webhooks, labels.name ?? '?', 1, value); break;
    }
  }
  return { requests, webhooks, latency };
}
