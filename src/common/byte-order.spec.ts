import { compareBytes } from './byte-order';

/** A random string mixing ASCII, Latin-1, CJK, the top of the BMP and astral characters. */
function randomString(random: () => number): string {
  const pools = [
    [0x41, 0x5a],
    [0x61, 0x7a],
    [0xc0, 0xff],
    [0x4e00, 0x4e10],
    [0xe000, 0xe010],
    [0xfff0, 0xfffd],
    [0x1f600, 0x1f610],
    [0x10000, 0x10010],
  ];
  let text = '';
  const length = Math.floor(random() * 5);
  for (let i = 0; i < length; i++) {
    const [low, high] = pools[Math.floor(random() * pools.length)];
    text += String.fromCodePoint(low + Math.floor(random() * (high - low + 1)));
  }
  return text;
}

/** A small deterministic PRNG, so that a failure can be reproduced. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('compareBytes', () => {
  it('orders as the UTF-8 bytes do, unlike localeCompare', () => {
    const names = ['beta', 'Zeta', 'alpha', 'Alpha', 'a', 'ä', '~', '_x', '-x', '0', 'ab'];
    expect([...names].sort(compareBytes)).toEqual([
      '-x',
      '0',
      'Alpha',
      'Zeta',
      '_x',
      'a',
      'ab',
      'alpha',
      'beta',
      '~',
      'ä',
    ]);
  });

  it('puts characters above U+FFFF after U+E000–U+FFFF, as their UTF-8 bytes do', () => {
    const emoji = '\u{1F600}';
    const privateUse = '\uE000';
    expect(emoji < privateUse).toBe(true); // UTF-16 code units get this wrong
    expect(compareBytes(emoji, privateUse)).toBeGreaterThan(0);
    expect(compareBytes(privateUse, emoji)).toBeLessThan(0);
    expect(compareBytes(`x${emoji}`, `x${emoji}`)).toBe(0);
  });

  it('agrees with Buffer.compare on 20,000 random pairs', () => {
    const random = mulberry32(42);
    for (let i = 0; i < 20000; i++) {
      const a = randomString(random);
      const b = randomString(random);
      const expected = Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
      expect([a, b, Math.sign(compareBytes(a, b))]).toEqual([a, b, expected]);
    }
  });
});
