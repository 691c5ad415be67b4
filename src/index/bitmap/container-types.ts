// The three Roaring container kinds. A container holds the low 16 bits of the ids that share
// one high-16-bit key. Classes only (no behaviour) so every kernel file can import them
// without import cycles; kernels dispatch on the numeric `kind` discriminant.
//
// Invariants every kernel keeps (and checked deserialization enforces):
//   - a container is never empty (card >= 1); an empty result is `null` and gets dropped;
//   - ArrayContainer: card <= ARRAY_MAX_CARD, values[0..card) strictly ascending;
//   - BitsetContainer: card > ARRAY_MAX_CARD, card === popcount(words);
//   - RunContainer: runs[2i] = start, runs[2i+1] = length - 1, starts ascending, runs neither
//     overlap nor touch (start(i+1) > end(i) + 1), card === sum of lengths.
// Run containers may hold any cardinality: they exist where they are the smallest encoding.

/** Largest cardinality stored as a sorted array; above it a bitset is smaller (CRoaring's DEFAULT_MAX_SIZE). */
export const ARRAY_MAX_CARD = 4096

/** Discriminant of {@link ArrayContainer}. */
export const KIND_ARRAY = 0
/** Discriminant of {@link BitsetContainer}. */
export const KIND_BITSET = 1
/** Discriminant of {@link RunContainer}. */
export const KIND_RUN = 2

/** Sorted uint16 values, `values.length` is the capacity (>= card). */
export class ArrayContainer {
  readonly kind: typeof KIND_ARRAY = KIND_ARRAY
  values: Uint16Array
  card: number
  /**
   * True when `values` is a view over caller-owned bytes (deserialize with copy: false).
   * DANGER: a view container must never be written; mutators copy it first (copy-on-write).
   */
  isView: boolean

  constructor(values: Uint16Array, card: number, isView = false) {
    this.values = values
    this.card = card
    this.isView = isView
  }
}

/** 65536 bits in 2048 u32 words with a cached cardinality. */
export class BitsetContainer {
  readonly kind: typeof KIND_BITSET = KIND_BITSET
  words: Uint32Array
  card: number
  /** See {@link ArrayContainer.isView}. */
  isView: boolean
  /**
   * Set bits before each block of RANK_BLOCK_WORDS words, built by the first rank lookup that
   * skips far (rank-cursor.ts). Only a view container keeps one: it is never written.
   */
  rankBlocks: Uint16Array | null = null

  constructor(words: Uint32Array, card: number, isView = false) {
    this.words = words
    this.card = card
    this.isView = isView
  }
}

/** Runs as [start, length - 1] uint16 pairs (the serialized layout); `runs.length / 2` is the capacity. */
export class RunContainer {
  readonly kind: typeof KIND_RUN = KIND_RUN
  runs: Uint16Array
  nRuns: number
  card: number
  /** See {@link ArrayContainer.isView}. */
  isView: boolean

  constructor(runs: Uint16Array, nRuns: number, card: number, isView = false) {
    this.runs = runs
    this.nRuns = nRuns
    this.card = card
    this.isView = isView
  }
}

/** Any container; narrow with `switch (c.kind)`. */
export type Container = ArrayContainer | BitsetContainer | RunContainer

/**
 * The raw parts of a Roaring bitmap: ascending high-16-bit keys and one non-empty container per
 * key. `Bitmap` implements it; the kernels work on parts so they need not import the class.
 */
export interface BitmapParts {
  keys: number[]
  containers: Container[]
}
