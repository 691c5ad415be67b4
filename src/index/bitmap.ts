// The only file the rest of Sift imports for bitmaps (STYLE B3: the one place that knows which
// bitmap implementation we use). Today that is our own pure TypeScript Roaring bitmap in
// ./bitmap/: the `roaring` addon does not load in Bun and roaring-wasm's dense AND is ~11x
// slower than a word loop (measured in bench/micro/bitmap-ops.bench.ts, see bench/README.md).
// Bytes are the portable Roaring format, so any binding can read what we write.

export { Bitmap, sortUnique, type BitmapContainerStats } from './bitmap/roaring-bitmap.ts'
export { BitmapCursor, CURSOR_END } from './bitmap/cursor.ts'
export { RankCursor } from './bitmap/rank-cursor.ts'
export type { DeserializeOptions as BitmapDeserializeOptions } from './bitmap/serialization.ts'
