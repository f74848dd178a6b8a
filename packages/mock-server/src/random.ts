/**
 * A small seeded pseudo-random generator. The mock needs the same dataset, ids and tokens for the
 * same seed on every machine, so nothing here may touch Math.random or the clock.
 */

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  bool(probability?: number): boolean;
  /** `length` lowercase hex characters. */
  hex(length: number): string;
  /** A child generator whose stream depends only on this seed and `label`. */
  fork(label: string): Random;
}

/** FNV-1a over UTF-16 code units: stable labels → seeds. */
function hashLabel(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function createRandom(seed: number): Random {
  // Integer state from any number (NaN and fractions included), so every seed yields a stream.
  let state = (Number.isFinite(seed) ? Math.trunc(seed) : 0) >>> 0;
  const base = state;
  const nextU32 = (): number => {
    // Weyl sequence plus an avalanche step: cheap, full period 2^32, good enough for fixtures.
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  const random: Random = {
    next: () => nextU32() / 0x1_0000_0000,
    int: (min, max) => min + Math.floor(random.next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError("pick from an empty list");
      return items[Math.floor(random.next() * items.length)] as T;
    },
    bool: (probability = 0.5) => random.next() < probability,
    hex: (length) => {
      let out = "";
      while (out.length < length) out += nextU32().toString(16).padStart(8, "0");
      return out.slice(0, length);
    },
    fork: (label) => createRandom((base ^ hashLabel(label)) >>> 0),
  };
  return random;
}
