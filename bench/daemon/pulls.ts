// The pieces the daemon benchmark measures with: pulls through containerd's own `ctr`, pulls through the real
// daemon (NodeImage spec → images present in the runtime), emptying the k8s.io namespace between rounds, and
// the resident memory of a process.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { CustomObjectsApi } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { ImageService } from '../../daemon/cri/runtime.js';
import { normalizeImageRef } from '../../shared/domain/image-ref.js';

const run = promisify(execFile);
const ctr = (socket: string, args: string[]) => run('ctr', ['-a', socket, '-n', 'k8s.io', ...args], { maxBuffer: 16 * 1024 * 1024 });

/** Resident set size of `pid` in MiB, from /proc/<pid>/status VmRSS. */
export function rssMiB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Samples `rssMiB(pid)` every `everyMs` until the returned stop() is called; stop() gives the peak. */
export function sampleRss(pid: number, everyMs = 100): () => number {
  let peak = rssMiB(pid);
  const t = setInterval(() => { peak = Math.max(peak, rssMiB(pid)); }, everyMs);
  return () => { clearInterval(t); return Math.max(peak, rssMiB(pid)); };
}

/** Wall time of `refs.length` concurrent `ctr images pull --plain-http` processes, all succeeding. */
export async function pullWithCtr(socket: string, refs: string[]): Promise<number> {
  const t0 = performance.now();
  await Promise.all(refs.map((ref) => ctr(socket, ['images', 'pull', '--plain-http', ref])));
  return performance.now() - t0;
}

const tagsOf = async (images: ImageService) => new Set((await images.listImages()).flatMap((i) => i.repoTags));

/**
 * Wall time from the NodeImage spec patch that asks for `refs` until every one is listed by the runtime: what a
 * user of the daemon waits for. Polls ListImages every 100 ms (CRI lists an image once its pull is complete).
 * Each round passes a new `version`, so a status left from an earlier round is never adopted as finished.
 */
export async function pullWithDaemon(custom: CustomObjectsApi, nodeName: string, images: ImageService, refs: string[], version: number, timeoutMs = 600_000): Promise<number> {
  const spec: Record<string, object> = {};
  for (const ref of refs) {
    const { name, tag } = normalizeImageRef(ref);
    spec[name] = { tags: [{ tag, version, imagePullPolicy: 'Always', pullPolicy: { ttlSecondsAfterFinished: 600, timeoutSeconds: 600, backoffLimit: 0 } }] };
  }
  const t0 = performance.now();
  await patchImages(custom, nodeName, spec);
  for (;;) {
    const present = await tagsOf(images);
    if (refs.every((r) => present.has(r))) return performance.now() - t0;
    if (performance.now() - t0 > timeoutMs) throw new Error(`daemon pulls not done after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function patchImages(custom: CustomObjectsApi, nodeName: string, images: Record<string, object | null>): Promise<void> {
  await custom.patchClusterCustomObject(
    { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'nodeimages', name: nodeName, body: { spec: { images } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

/**
 * Removes every image record in k8s.io and garbage-collects, so the next round pulls every byte again. Retried: a
 * CRI pull that just listed its tag may still be adding its digest and ID records (and holding its lease).
 */
export async function emptyRuntime(socket: string, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const names = (await ctr(socket, ['images', 'ls', '-q'])).stdout.split('\n').filter(Boolean);
    if (names.length) await ctr(socket, ['images', 'rm', '--sync', ...names]);
    const left = (await ctr(socket, ['content', 'ls', '-q'])).stdout.split('\n').filter(Boolean);
    if (left.length === 0) return;
    if (performance.now() > deadline) throw new Error(`${left.length} blobs left in the content store after removing every image`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
