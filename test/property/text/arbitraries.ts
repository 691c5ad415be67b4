// Generators for the text property tests. Random Unicode alone almost never produces a
// product code, a decimal comma or a combining mark after a letter, so `shopText` glues
// fragments chosen to reach every tokenizer rule; the other two reach every code point.
import fc from 'fast-check'

const FRAGMENTS = [
  'RTX', '4090', 'rtx', 'i7', '12700K', '32GB', 'GB', '5G', 'SM', 'S918B', '6834a88asc', '802', '11ac',
  'Čerstvé', 'mléko', 'Łódź', 'Straße', 'Größe', 'őszi', 'ΟΔΟΣ', 'Русский', '٣', 'İ', 'ﬁ', '½', '²',
  'men', 's', 'a', '1', '2', '5', 'x',
  ' ', ' ', ' ', '-', '-', '/', '.', ',', "'", '’', '&', '_', '--', '\t', '!', '<', '>', '"',
  '\u0301', '\u00AD', '\u200B', '\u200D', '\uFE0F', '😀', '👨‍👩‍👧', '\uD800',
]

/** Realistic-ish catalog text: fragments glued with and without separators. */
export const shopText: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...FRAGMENTS), { maxLength: 24 })
  .map((parts) => parts.join(''))

/** Any text: shop-like, grapheme-valid Unicode, or raw UTF-16 (lone surrogates included). */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  shopText,
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
)
