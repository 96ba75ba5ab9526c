// RE2's Unicode classes as Go 1.23's regexp/syntax reads them (OpenKruise v1.9.0 is built with Go 1.23.9, Unicode
// 15.0.0): `\pL`, `\p{Greek}`, `\p{^Greek}`, `\PL`, inside brackets too. A name is `Any`, a general category of
// unicode.Categories, or a script of unicode.Scripts, spelled exactly (Go 1.23 has no aliases such as `Letter`, no
// `Script=`, no case folding of names; later Go versions added some, kruise v1.9.0 does not have them). The sets come
// from JavaScript's own property escapes (`\p{gc=…}`, `\p{sc=…}`), so no range table is embedded here; only the names,
// so that a name JavaScript knows and Go 1.23 does not is refused as Go refuses it.

/** Same shape as go-regexp-parse.ts's CodePointTest (not imported: this module is a leaf). */
type CodePointTest = (cp: number) => boolean;

/** unicode.Categories keys in Go 1.23 (no `LC`, no `Cn`). */
const CATEGORIES = new Set('C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '));

/** unicode.Scripts keys in Go 1.23 (Unicode 15.0.0). */
const SCRIPTS = new Set((
  'Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali Bhaiksuki ' +
  'Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham Cherokee ' +
  'Chorasmian Common Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic Deseret Devanagari Dives_Akuru Dogra Duployan ' +
  'Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Georgian Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi ' +
  'Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic Inherited ' +
  'Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kawi Kayah_Li Kharoshthi ' +
  'Khitan_Small_Script Khmer Khojki Khudawadi Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani ' +
  'Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui ' +
  'Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani Myanmar Nabataean Nag_Mundari Nandinagari ' +
  'New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic Old_North_Arabian ' +
  'Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong ' +
  'Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada Shavian ' +
  'Siddham SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le ' +
  'Tai_Tham Tai_Viet Takri Tamil Tangsa Tangut Telugu Thaana Thai Tibetan Tifinagh Tirhuta Toto Ugaritic Vai ' +
  'Vithkuqi Wancho Warang_Citi Yezidi Yi Zanabazar_Square'
).split(' '));

/**
 * Go's "Other" (C) is Cc, Cf, Co and Cs: unlike Unicode's (and JavaScript's `\p{C}`) it leaves unassigned code points
 * (Cn) out.
 */
const SOURCES: Record<string, string> = { Any: '[\\s\\S]', C: '[\\p{Cc}\\p{Cf}\\p{Co}\\p{Cs}]' };

const compiled = new Map<string, RegExp>();

/**
 * The membership test of Go's Unicode class `name` (without `^`), widened to whole fold orbits under `(?i)` (Go adds
 * unicode.FoldCategory / FoldScript; a `u`+`i` RegExp matches a code point whose simple case folding meets the set),
 * or null where Go 1.23 reports "invalid character class range". At most two RegExps per known name are ever built.
 */
export function unicodeClass(name: string, foldCase = false): CodePointTest | null {
  const key = `${foldCase ? 'i' : ''}:${name}`;
  let re = compiled.get(key);
  if (!re) {
    const source = SOURCES[name] ?? (CATEGORIES.has(name) ? `\\p{gc=${name}}` : SCRIPTS.has(name) ? `\\p{sc=${name}}` : undefined);
    if (source === undefined) return null;
    compiled.set(key, (re = new RegExp(`^${source}$`, foldCase ? 'iu' : 'u')));
  }
  const r = re;
  return (cp) => r.test(String.fromCodePoint(cp));
}
