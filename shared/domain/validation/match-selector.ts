// Private label-selector matcher. shared/domain/label-selector.ts (owned by another engineer) did not exist when
// this was written; swap the import in sidecarset-conflicts.ts and patch-metadata.ts once it lands.
import type { LabelSelector } from '../../api/meta.js';

/** metav1.LabelSelectorAsSelector(s).Matches(labels). `{}` matches everything; unknown operators match nothing. */
export function selectorMatches(selector: LabelSelector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const req of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, req.key);
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
        if (!has || !values.includes(labels[req.key]!)) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[req.key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
