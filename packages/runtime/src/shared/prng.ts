/**
 * A small seeded pseudo-random generator for mock data. Only 32-bit integer arithmetic
 * (`Math.imul`, shifts) feeds the state, so the same seed gives the same sequence on every engine
 * and machine; nothing here reads the clock or `Math.random`.
 */

/** FNV-1a over UTF-16 code units: a stable 32-bit hash of a key or path. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

// murmur3's finalizer: every input bit affects every output bit, so neighbouring seeds diverge.
function avalanche(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The seed of a child (a property, an array index, a retry) from its parent's seed and its key.
 * Each child depends only on its own key, so adding a sibling field never shifts the others.
 */
export function deriveSeed(seed: number, key: string | number): number {
  const k = typeof key === "number" ? avalanche(key ^ 0x9e3779b9) : hashString(key);
  return avalanche((seed >>> 0) ^ Math.imul(k, 0x27d4eb2d) ^ 0x165667b1);
}

/** Any number as a 32-bit unsigned seed (fractions and sign folded in deterministically). */
export function normalizeSeed(seed: number): number {
  if (Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff) return seed;
  return hashString(String(seed));
}

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive; `min` when the range is empty. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element; throws on an empty list (a caller bug, never data). */
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: 32 bits of state, fast, and good enough to spread mock values. */
export function createRng(seed: number): Rng {
  let state = normalizeSeed(seed);
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int(min, max) {
      if (!(max > min)) return min;
      return min + Math.floor(next() * (max - min + 1));
    },
    chance(p) {
      return next() < p;
    },
    pick(items) {
      if (items.length === 0) throw new RangeError("pick from an empty list");
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
  };
}
