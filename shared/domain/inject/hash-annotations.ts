// The bookkeeping annotations injection writes (spec/webhooks.md §2.9): `kruise.io/sidecarset-hash`,
// `…-hash-without-image` (one entry per injecting SidecarSet, stamped with the injection time) and
// `kruise.io/sidecarset-injected-list`. A pod being created usually carries none of them yet; its values then depend
// only on which SidecarSets inject and on the second of injection. For that case the text around the timestamps is
// rendered once per combination of SidecarSet generations and each pod only joins it with its timestamp.
import {
  SidecarSetHashAnnotation,
  SidecarSetHashWithoutImageAnnotation,
  SidecarSetListAnnotation,
} from '../../api/sidecarset.js';
import { byteOrder, formatUpgradeSpecMap, parseUpgradeSpecMap, type UpgradeSpec } from './annotations.js';
import { rememberStringJson } from '../frozen-json.js';
import { goString } from '../go-json.js';

/** What one injecting SidecarSet contributes; the same object for as long as the SidecarSet is unchanged. */
export interface SetEntries {
  name: string;
  /** Both entries with updateTimestamp null and the rest pre-rendered (withTail); undefined when nothing is injected. */
  entries?: { hash: UpgradeSpec; hashWithoutImage: UpgradeSpec };
}

export type HashAnnotations = Record<typeof SidecarSetHashAnnotation | typeof SidecarSetHashWithoutImageAnnotation | typeof SidecarSetListAnnotation, string>;

/**
 * The three annotations after `sets` (in injection order) injected at `timestamp` (RFC 3339) into a pod whose own
 * annotations are `existing`: entries of other SidecarSets kept, names added to the list. `reusable`: the caller hands
 * the same SetEntries objects again for unchanged SidecarSets, so templates may be kept for them. Throws
 * AdmissionDeniedError (400) on an existing hash annotation that does not parse.
 */
export function hashAnnotations(sets: readonly SetEntries[], existing: Record<string, string>, timestamp: string, podRef: string, reusable: boolean): HashAnnotations {
  const fresh = !existing[SidecarSetHashAnnotation] && !existing[SidecarSetHashWithoutImageAnnotation] && !existing[SidecarSetListAnnotation];
  const template = reusable && fresh ? templateFor(sets) : undefined;
  if (template) {
    // Timestamps have whole seconds: pods created in the same second get the very same strings (and their JSON).
    if (template.last?.timestamp !== timestamp) template.last = stamp(template, timestamp);
    const { hash, hashWithoutImage } = template.last;
    rememberStringJson(hash, template.last.hashJson);
    rememberStringJson(hashWithoutImage, template.last.hashWithoutImageJson);
    return { [SidecarSetHashAnnotation]: hash, [SidecarSetHashWithoutImageAnnotation]: hashWithoutImage, [SidecarSetListAnnotation]: template.list };
  }
  return render(sets, existing, timestamp, podRef);
}

function render(sets: readonly SetEntries[], existing: Record<string, string>, timestamp: string, podRef: string): HashAnnotations {
  const hash = parseUpgradeSpecMap(existing[SidecarSetHashAnnotation], SidecarSetHashAnnotation, podRef);
  const hashWithoutImage = parseUpgradeSpecMap(existing[SidecarSetHashWithoutImageAnnotation], SidecarSetHashWithoutImageAnnotation, podRef);
  const names = new Set(existing[SidecarSetListAnnotation] ? existing[SidecarSetListAnnotation].split(',') : []);
  for (const { name, entries } of sets) {
    names.add(name);
    if (!entries) continue;
    hash.set(name, { ...entries.hash, updateTimestamp: timestamp });
    hashWithoutImage.set(name, { ...entries.hashWithoutImage, updateTimestamp: timestamp });
  }
  return {
    [SidecarSetHashAnnotation]: formatUpgradeSpecMap(hash),
    [SidecarSetHashWithoutImageAnnotation]: formatUpgradeSpecMap(hashWithoutImage),
    [SidecarSetListAnnotation]: [...names].sort(byteOrder).join(','),
  };
}

interface Template {
  /** The annotation split at its timestamps: join with the JSON of the timestamp to get the value. */
  hash: string[];
  hashWithoutImage: string[];
  /** The same parts as they read inside a JSON string (escaped, no quotes). */
  hashJson: string[];
  hashWithoutImageJson: string[];
  list: string;
  /** The values for the last timestamp used. */
  last?: Stamped;
}

interface Stamped {
  timestamp: string;
  hash: string;
  hashWithoutImage: string;
  /** JSON of hash and hashWithoutImage. */
  hashJson: string;
  hashWithoutImageJson: string;
}

function stamp(template: Template, timestamp: string): Stamped {
  const ts = goString(timestamp);
  const tsJson = escaped(ts);
  return {
    timestamp,
    hash: template.hash.join(ts),
    hashWithoutImage: template.hashWithoutImage.join(ts),
    // The patch carries these as JSON strings: their escaped form is joined from escaped parts too.
    hashJson: `"${template.hashJson.join(tsJson)}"`,
    hashWithoutImageJson: `"${template.hashWithoutImageJson.join(tsJson)}"`,
  };
}

/** `s` escaped as inside a JSON string. Per part is the same as whole: parts are split at ASCII text. */
const escaped = (s: string) => JSON.stringify(s).slice(1, -1);

/** Stands in for the timestamp while rendering a template; Go-escaped, it cannot occur in any other part of the text. */
const PLACEHOLDER = '\u0000updateTimestamp\u0000';
const PLACEHOLDER_JSON = goString(PLACEHOLDER);

/** Rendered by the general path with the placeholder, then split: identical to it by construction. */
function makeTemplate(sets: readonly SetEntries[]): Template | null {
  const values = render(sets, {}, PLACEHOLDER, '');
  const stamped = new Set(sets.filter((s) => s.entries).map((s) => s.name)).size;
  const hash = values[SidecarSetHashAnnotation].split(PLACEHOLDER_JSON);
  const hashWithoutImage = values[SidecarSetHashWithoutImageAnnotation].split(PLACEHOLDER_JSON);
  if (hash.length !== stamped + 1 || hashWithoutImage.length !== stamped + 1) return null;
  return { hash, hashWithoutImage, hashJson: hash.map(escaped), hashWithoutImageJson: hashWithoutImage.map(escaped), list: values[SidecarSetListAnnotation] };
}

// Templates by the sequence of SetEntries objects, as a trie of WeakMaps: a SidecarSet that changes gets new entries,
// and the templates that used the old ones go with them. The count caps memory if pods select ever new combinations.
interface Node {
  next?: WeakMap<SetEntries, Node>;
  template?: Template | null;
}
const root: Node = {};
const MAX_TEMPLATES = 4096;
let templates = 0;

/** Only for entries cached per SidecarSet generation (callers pass the same objects for an unchanged SidecarSet). */
function templateFor(sets: readonly SetEntries[]): Template | null | undefined {
  let node = root;
  for (const s of sets) {
    let child = node.next?.get(s);
    if (!child) {
      if (templates >= MAX_TEMPLATES) return undefined;
      (node.next ??= new WeakMap()).set(s, (child = {}));
    }
    node = child;
  }
  if (node.template === undefined) {
    if (templates >= MAX_TEMPLATES) return undefined;
    templates++;
    node.template = makeTemplate(sets);
  }
  return node.template;
}
