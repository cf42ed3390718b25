/**
 * Seeded pseudo-random numbers (mulberry32). The whole generator state is one 32-bit integer kept in the
 * world state, so a saved world continues with exactly the numbers an unsaved one would have drawn.
 */
export interface PrngState {
  rng: number;
}

export class Prng {
  constructor(private readonly holder: PrngState) {}

  /** A float in [0, 1). */
  next(): number {
    this.holder.rng = (this.holder.rng + 0x6d2b79f5) | 0;
    let t = this.holder.rng;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** `length` lowercase hex digits. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.int(16).toString(16);
    return out;
  }

  /** `length` characters of `alphabet`. */
  chars(length: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += alphabet[this.int(alphabet.length)];
    return out;
  }

  /** A version-4-shaped UUID. */
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** A seed string or number → the initial generator state. */
export function seedState(seed: string | number): number {
  if (typeof seed === 'number') return seed | 0;
  let h = 2166136261;
  for (let i = 0; i < seed.length; i += 1) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return h | 0;
}
