// The node and pod selector rules of an ImagePullJob template, the same in ImagePullJob and ImageListPullJob
// admission (spec/webhooks.md §5.2, spec/openkruise-v1.9.md §6): the first failure, with upstream's message.
import type { ImagePullJobTemplate } from '../../api/image-pull-job.js';
import type { Violation } from '../../errors.js';
import { labelSelectorConversionError } from './selector-validation.js';

const invalid = (field: string, value: unknown, detail: string): Violation[] => [{ field, type: 'Invalid value', value, detail }];

export function validateJobSelectors(spec: Pick<ImagePullJobTemplate, 'selector' | 'podSelector'>): Violation[] {
  const sel = spec.selector;
  if (sel) {
    if (sel.matchLabels != null || sel.matchExpressions != null) {
      if (sel.names != null) return invalid('spec.selector', sel, 'can not set both names and labelSelector in this spec.selector');
      const err = labelSelectorConversionError(sel);
      if (err) return invalid('spec.selector', sel, `invalid selector: ${err}`);
    }
    if (sel.names != null && new Set(sel.names).size !== sel.names.length) {
      return invalid('spec.selector.names', sel.names, 'duplicated name in selector names');
    }
  }
  if (spec.podSelector) {
    if (sel) return invalid('spec.podSelector', spec.podSelector, 'can not set both selector and podSelector');
    const err = labelSelectorConversionError(spec.podSelector);
    if (err) return invalid('spec.podSelector', spec.podSelector, `invalid podSelector: ${err}`);
  }
  return [];
}
