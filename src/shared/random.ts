/**
 * Mulberry32: a small, fast, seeded PRNG. Everything generated for demos, benches and tests uses it,
 * so the same seed gives the same catalog on every machine and a failing case replays from its seed.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
