/**
 * Title pairs: per doc, a 64-bit Bloom-style summary of which first letters stand side by side in
 * its title. For every two neighbouring title positions p, p + 1 (both < 32, the positions the
 * phrase bonus can see), each pair (first character of a term at p, first character of a term at
 * p + 1) sets one bit, `titlePairBit(a, b)`. A term here is every indexed term at the position: the
 * whole token and its parts ("RTX-4090" at p gives "rtx4090", "rtx" and "4090"), so any term that
 * can put a word in the title's position mask is counted.
 *
 * What it is for: candidate pruning (engine/candidate-prune.ts) bounds a doc's score with the
 * largest text bonus it could earn. Two words typed side by side earn the phrase bonus (×1.25) only
 * where the title has them adjacent; without knowing that, every hit was bounded as if it did, and
 * a one-letter last word after a common one ("blue j") kept thousands of hits as candidates. With
 * the summary, a doc whose bit for (first letters of word 1, first letters of word 2) is clear
 * cannot have the pair, so its bound drops to the bonus without it. A set bit proves nothing (other
 * pairs share bits): the bound then stays as before. 8 bytes a doc.
 *
 * Stored as section `titlePairs` (u32, [doc * 2] low word, [doc * 2 + 1] high word). Segments
 * written before it lack the section: readers then treat every bit as set (no pruning gain, no
 * wrong answer).
 */

/** Title positions the phrase bonus reads (postings keep title positions < 32). */
const TITLE_POSITIONS = 32

/**
 * The bit (0..63) of the pair of first characters (UTF-16 code units) `a` then `b`. Stored bits are
 * read with it: changing it makes old segments' bits lie (bounds too low), so it needs a new section.
 */
export function titlePairBit(a: number, b: number): number {
  return (Math.imul(Math.imul(a, 0x9e3779b1) ^ (b + 0x7f4a7c15), 0x85ebca6b) >>> 26) & 63
}

/**
 * Accumulates one doc's title terms in position order (as the tokenizer emits them: positions
 * ascending, a token's parts at its position); the doc's summary is then in `lo` and `hi` (as int32:
 * store them in a Uint32Array, which wraps them back).
 */
export class TitlePairsBuilder {
  lo = 0
  hi = 0
  private prevPos = -2
  private curPos = -2
  private prevChars: number[] = []
  private curChars: number[] = []

  reset(): void {
    this.lo = 0
    this.hi = 0
    this.prevPos = -2
    this.curPos = -2
    this.prevChars.length = 0
    this.curChars.length = 0
  }

  /** A term at title position `pos` (absolute, across title values); positions must not decrease. */
  add(pos: number, term: string): void {
    if (pos >= TITLE_POSITIONS || term.length === 0) return
    const c = term.charCodeAt(0)
    if (pos !== this.curPos) {
      // Shift: the current position becomes the previous one (swap the arrays to reuse them).
      const spare = this.prevChars
      this.prevChars = this.curChars
      this.prevPos = this.curPos
      this.curChars = spare
      this.curChars.length = 0
      this.curPos = pos
    }
    if (this.curChars.includes(c)) return
    this.curChars.push(c)
    if (this.prevPos !== pos - 1) return
    for (const a of this.prevChars) this.set(titlePairBit(a, c))
  }

  private set(bit: number): void {
    if (bit < 32) this.lo |= 1 << bit
    else this.hi |= 1 << (bit - 32)
  }
}

/**
 * The bits a doc's title must have for words with first characters `firstA` to stand right before
 * words with first characters `firstB`: [low word, high word]. A doc with neither bit set cannot
 * have that pair adjacent in its title.
 */
export function pairQueryMask(firstA: Iterable<number>, firstB: Iterable<number>): [number, number] {
  let lo = 0
  let hi = 0
  const bs = [...firstB]
  for (const a of firstA) {
    for (const b of bs) {
      const bit = titlePairBit(a, b)
      if (bit < 32) lo |= 1 << bit
      else hi |= 1 << (bit - 32)
    }
  }
  return [lo, hi]
}
