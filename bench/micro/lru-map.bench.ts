// What's measured: a bounded cache's eviction in Bun, µs an operation (a lookup, and on a miss an
//   insert and an eviction): a plain Map evicting `map.keys().next()` (a fresh iterator each time)
//   against shared/lru-map.ts (one iterator kept across evictions), both moving a hit to the back.
// Corpus model: keys drawn cyclically from a working set 1.6 times the capacity (every access
//   misses: a bench cycling through its requests), or Zipf(1) over 100,000 keys (a shop's traffic:
//   most accesses hit).
// Notes: 10,000 entries, the size of a worker's object cache; the median of 5 runs of 300,000 operations.
// Run: npx bun run bench/micro/lru-map.bench.ts
import { LruMap } from '@/shared/lru-map.ts'
import { seededRandom } from '@/shared/random.ts'
import { median } from '../support/stats.ts'

const CAPACITY = 10_000
const OPS = 300_000

function cyclicKeys(): string[] {
  return Array.from({ length: OPS }, (_, i) => `item-${i % Math.round(CAPACITY * 1.6)}`)
}

function zipfKeys(): string[] {
  const random = seededRandom(1)
  const n = 100_000
  // Inverse of the Zipf(1) CDF, approximately: rank ≈ n^u for u uniform in [0, 1).
  return Array.from({ length: OPS }, () => `item-${Math.floor(n ** random()) - 1}`)
}

function plainMap(keys: string[]): number {
  const map = new Map<string, number>()
  const t0 = performance.now()
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const hit = map.get(key)
    if (hit !== undefined) {
      map.delete(key)
      map.set(key, hit)
      continue
    }
    map.set(key, i)
    if (map.size > CAPACITY) map.delete(map.keys().next().value!)
  }
  return performance.now() - t0
}

function lruMap(keys: string[]): number {
  const map = new LruMap<string, number>()
  const t0 = performance.now()
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (map.get(key) !== undefined) continue
    map.set(key, i)
    if (map.size > CAPACITY) map.evictOldest()
  }
  return performance.now() - t0
}

console.log(`| access pattern | Map + keys().next() µs/op | LruMap µs/op | ratio |`)
console.log(`|---|---:|---:|---:|`)
for (const [name, keys] of [['cyclic, every access misses', cyclicKeys()], ['Zipf over 100,000 keys', zipfKeys()]] as const) {
  const plain: number[] = []
  const lru: number[] = []
  for (let run = 0; run < 5; run++) {
    plain.push((1000 * plainMap(keys)) / OPS)
    lru.push((1000 * lruMap(keys)) / OPS)
  }
  const p = median(plain)
  const l = median(lru)
  console.log(`| ${name} | ${p.toFixed(2)} | ${l.toFixed(2)} | ${(l / p).toFixed(3)} |`)
}
