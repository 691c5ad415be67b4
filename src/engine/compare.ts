/** String order helpers shared by the engine's harvest steps. */
import { encodeUtf8 } from '@/index/index.ts'

/** UTF-8 byte order (= code point order) of two strings: the order of segment value tables. */
export function compareBytesOrder(a: string, b: string): number {
  if (a === b) return 0
  const x = encodeUtf8(a)
  const y = encodeUtf8(b)
  const len = Math.min(x.length, y.length)
  for (let i = 0; i < len; i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}
