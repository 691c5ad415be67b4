/**
 * Stopwords: function words that carry no product meaning. The engine decides when to drop
 * them (typically only when the query keeps at least one other term); this module only names
 * them. All entries are folded terms, so they compare directly with `analyze` output.
 */

/** Lucene's classic English list: short, and every entry is a function word. */
const ENGLISH = [
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it',
  'no', 'not', 'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these',
  'they', 'this', 'to', 'was', 'will', 'with',
]

/**
 * Czech and German function words, folded. Left out on purpose because the folded form is a
 * shop word in English or a product name: "pro" (MacBook Pro), "se" (iPhone SE), "fur"
 * (German "für"), "ale" (beer), and single letters such as "s", "v", "k", "z", "o", "u"
 * (sizes, volts, units).
 */
const CZECH = [
  'ani', 'by', 'do', 'i', 'jak', 'je', 'jako', 'ke', 'na', 'nebo', 'od', 'po', 'pod', 'pri',
  've', 'za', 'ze',
]

const GERMAN = [
  'auf', 'das', 'dem', 'den', 'der', 'des', 'die', 'ein', 'eine', 'einem', 'einen', 'einer',
  'im', 'ist', 'mit', 'oder', 'und', 'von', 'vom', 'zu', 'zum', 'zur',
]

/** English plus common Czech and German stopwords, as folded terms. */
export const STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH, ...CZECH, ...GERMAN])
