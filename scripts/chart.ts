// The Helm chart charts/kruise-ts as the one source of manifests/: where the helm binary is, `helm template`, and
// the split of its output into the files of manifests/ (scripts/manifests.ts writes them, scripts/manifests.test.ts
// checks they are current).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { load } from 'js-yaml';

export const CHART_DIR = 'charts/kruise-ts';
export const GENERATED_HEADER = '# Generated from charts/kruise-ts by npm run manifests; do not edit.\n';
/**
 * manifests/ name the image the e2e harness builds and pushes (kruise-ts/manager:dev, e2e/harness/images); the
 * chart's own default tag is its appVersion.
 */
export const MANIFEST_VALUES: readonly string[] = ['--set', 'image.tag=dev'];
export const CERT_MANAGER_VALUES: readonly string[] = [...MANIFEST_VALUES, '--set', 'externalCerts.enabled=true'];

/**
 * The helm e2e/cluster/build.sh builds from Go modules: <cache>/helm-<HELM>/helm, the cache root as build.sh
 * resolves it. Undefined when it is not built.
 */
export function findHelm(repoRoot: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const version = /^HELM=(\S+)$/m.exec(readFileSync(join(repoRoot, 'e2e/cluster/build.sh'), 'utf8'))?.[1];
  if (!version) throw new Error('e2e/cluster/build.sh sets no HELM= version');
  const root = env.KRUISE_TS_BIN_CACHE ?? join(env.XDG_CACHE_HOME ?? join(env.HOME ?? homedir(), '.cache'), 'kruise-ts-bins');
  const helm = join(root, `helm-${version}`, 'helm');
  return existsSync(helm) ? helm : undefined;
}

/** `helm template kruise-ts <chart>` with extra arguments (`--set k=v`, `-f file`). */
export function helmTemplate(helm: string, chart: string, args: readonly string[] = []): string {
  return execFileSync(helm, ['template', 'kruise-ts', chart, ...args],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

export interface RenderedDoc { source: string; text: string; object: Record<string, unknown> | undefined }

/** helm template's stream as documents, each with the template it came from (its `# Source:` line, removed). */
export function splitRendered(stream: string): RenderedDoc[] {
  const docs: RenderedDoc[] = [];
  for (const part of stream.split(/^---\s*$/m)) {
    const m = /^# Source: [^/]+\/templates\/(.+)$/m.exec(part);
    if (!m) {
      if (part.trim()) throw new Error(`a rendered document without its # Source line: ${part.slice(0, 200)}`);
      continue;
    }
    const text = `${part.replace(m[0], '').replace(/^\n+/, '').trimEnd()}\n`;
    const object = load(text) as Record<string, unknown> | null | undefined;
    docs.push({ source: m[1], text, object: object ?? undefined });
  }
  return docs;
}

const joinDocs = (texts: readonly string[]) => GENERATED_HEADER + texts.join('---\n');

/**
 * The generated files of manifests/, by path relative to it: each template of the default rendering becomes
 * base/<template>, the CRDs one file each under crd/ (named <group>_<plural>.yaml), and the cert-manager rendering's
 * certificate.yaml the overlay's. A template's comment-only documents (its file comments) head each file it makes.
 */
export function manifestFiles(defaults: string, certManager: string): Map<string, string> {
  const files = new Map<string, string>();
  const bySource = (docs: RenderedDoc[]) => {
    const m = new Map<string, { comments: string[]; objects: RenderedDoc[] }>();
    for (const d of docs) {
      const e = m.get(d.source) ?? { comments: [], objects: [] };
      m.set(d.source, e);
      if (!d.object) { if (!e.comments.includes(d.text)) e.comments.push(d.text); } else e.objects.push(d);
    }
    return m;
  };
  for (const [source, { comments, objects }] of bySource(splitRendered(defaults))) {
    if (source === 'crds.yaml') {
      for (const crd of objects) {
        const spec = crd.object?.spec as { group: string; names: { plural: string } };
        files.set(`crd/${spec.group}_${spec.names.plural}.yaml`, joinDocs([...comments, crd.text]));
      }
    } else if (objects.length > 0) {
      files.set(`base/${basename(source)}`, joinDocs([...comments, ...objects.map((o) => o.text)]));
    }
  }
  const cert = bySource(splitRendered(certManager)).get('certificate.yaml');
  if (!cert) throw new Error('externalCerts.enabled=true rendered no certificate.yaml');
  files.set('overlays/cert-manager/certificate.yaml', joinDocs([...cert.comments, ...cert.objects.map((o) => o.text)]));
  return files;
}

type Obj = { apiVersion?: string; kind?: string; metadata?: { namespace?: string; name?: string } };
const objectKey = (o: Obj) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;

/** The objects of a YAML stream, by kind/namespace/name, comments and empty documents dropped. */
export function objectsByKey(docs: readonly unknown[]): Map<string, unknown> {
  const m = new Map<string, unknown>();
  for (const d of docs) {
    if (!d || typeof d !== 'object') continue;
    const k = objectKey(d as Obj);
    if (m.has(k)) throw new Error(`${k} twice`);
    m.set(k, d);
  }
  return new Map([...m].sort(([a], [b]) => a.localeCompare(b)));
}
