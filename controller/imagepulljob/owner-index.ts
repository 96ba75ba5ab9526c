// Which NodeImages carry tags owned by which ImagePullJob, kept from NodeImage cache events. The job controller asks
// it where to remove its tags (selector edited, job deleted); the NodeImage controller asks it which NodeImages to
// look at when a job disappears. Upstream keeps a similar in-memory map of each job's last computed targets.
import type { NodeImage } from '../../shared/api/node-image.js';

export interface JobRef {
  uid: string;
  /** `namespace/name` of the job. */
  key: string;
}

export class OwnerIndex {
  private readonly byNodeImage = new Map<string, Map<string, string>>();
  private readonly byJob = new Map<string, Set<string>>();

  /** Re-indexes one NodeImage; pass undefined when it was deleted. */
  update(name: string, ni: NodeImage | undefined): void {
    const before = this.byNodeImage.get(name);
    for (const uid of before?.keys() ?? []) this.byJob.get(uid)?.delete(name);
    const now = new Map<string, string>();
    for (const image of Object.values(ni?.spec?.images ?? {})) {
      for (const tag of image.tags ?? []) {
        for (const ref of tag.ownerReferences ?? []) {
          if (ref.kind === 'ImagePullJob' && ref.uid) now.set(ref.uid, `${ref.namespace ?? ''}/${ref.name ?? ''}`);
        }
      }
    }
    if (now.size === 0) this.byNodeImage.delete(name); else this.byNodeImage.set(name, now);
    for (const uid of now.keys()) {
      let set = this.byJob.get(uid);
      if (!set) this.byJob.set(uid, (set = new Set()));
      set.add(name);
    }
    for (const uid of before?.keys() ?? []) if (this.byJob.get(uid)?.size === 0) this.byJob.delete(uid);
  }

  /** NodeImages with a tag owned by the job with this uid. */
  nodeImagesOf(uid: string): string[] {
    return [...(this.byJob.get(uid) ?? [])];
  }

  /** Jobs owning a tag on this NodeImage. */
  jobsOn(name: string): JobRef[] {
    return [...(this.byNodeImage.get(name) ?? [])].map(([uid, key]) => ({ uid, key }));
  }
}
