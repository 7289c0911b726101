import 'reflect-metadata';
import { ValidationError } from '../common/errors';
import { RequestValidationPipe } from '../common/validation.pipe';
import { isPlainlyValidFeedback, ProvideFeedbackDto } from './dto/provide-feedback.dto';
import { ProvideFeedbackPipe } from './provide-feedback.pipe';

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['a', 'Z', ' ', 'é', 'e\u0301', '漢', '😀', '❤️', '👩‍👩‍👧', '\u0000', '\n'];
const LENGTHS = [0, 1, 2, 50, 99, 100, 101, 102, 9_999, 10_000, 10_001];

function text(next: () => number, lengths = LENGTHS): string {
  const target = lengths[Math.floor(next() * lengths.length)];
  const alphabet = PIECES.slice(0, 2 + Math.floor(next() * (PIECES.length - 1)));
  // Built piece by piece up to about the target in code points, so that lengths land near the
  // limits; some pieces are two or more code points.
  const pieces: string[] = [];
  let length = 0;
  while (length < target) {
    const piece = alphabet[Math.floor(next() * alphabet.length)];
    pieces.push(piece);
    length += [...piece].length;
  }
  // Now and then an unpaired surrogate, which UTF-8 cannot carry.
  if (next() < 0.08)
    pieces.splice(Math.floor(next() * pieces.length), 0, next() < 0.5 ? '\ud83d' : '\ude00');
  return pieces.join('');
}

/** Texts are drawn from pools made once: building 10,000-character strings per body is slow. */
function pool(next: () => number, lengths: number[]): () => string {
  const texts = Array.from({ length: 120 }, () => text(next, lengths));
  return () => texts[Math.floor(next() * texts.length)];
}

function generator(seed: number): () => unknown {
  const next = random(seed);
  const anyText = pool(next, LENGTHS);
  const shortText = pool(next, [0, 1, 2, 50, 99, 100, 101, 102]);
  const others = [0, -0, 1e308, Infinity, -Infinity, NaN, '3', '', true, false, [], ['x'], {}];

  const value = (kind: 'text' | 'short' | 'score', careful: boolean): unknown => {
    const pick = next();
    if (pick < 0.15) return undefined;
    if (pick < 0.25) return null;
    if (pick < (careful ? 0.97 : 0.7)) {
      if (kind === 'score') return (next() - 0.5) * 10 ** (next() * 40);
      return kind === 'short' ? shortText() : anyText();
    }
    return others[Math.floor(next() * others.length)];
  };

  return () => {
    if (next() < 0.03) return [null, [], 'x', 5, true][Math.floor(next() * 5)];
    // Half the bodies are mostly well formed, so that both outcomes are frequent.
    const careful = next() < 0.5;
    const body: Record<string, unknown> = {};
    const fields: Array<[string, 'text' | 'short' | 'score']> = [
      ['category', 'short'],
      ['userType', 'short'],
      ['difficultyScore', 'score'],
      ['positive', 'text'],
      ['areasForImprovement', 'text'],
    ];
    for (const [field, kind] of fields) {
      const v = field === 'category' && next() < 0.8 ? shortText() : value(kind, careful);
      if (v !== undefined) body[field] = v;
    }
    if (next() < (careful ? 0.03 : 0.2)) {
      body[['rating', 'id', 'createdAt', 'constructor', 'toString'][Math.floor(next() * 5)]] = 1;
    }
    return body;
  };
}

const BODY = { type: 'body', metatype: ProvideFeedbackDto, data: undefined } as const;

async function accepts(transform: () => unknown): Promise<boolean> {
  try {
    await transform();
    return true;
  } catch (error) {
    if (error instanceof ValidationError) return false;
    throw error;
  }
}

describe('the validation of a feedback body', () => {
  const global = new RequestValidationPipe();
  const ours = new ProvideFeedbackPipe();

  const outcomes = async (body: unknown) => ({
    quick: isPlainlyValidFeedback(body),
    global: await accepts(() => global.transform(structuredClone(body), BODY)),
    ours: await accepts(() => ours.transform(structuredClone(body))),
  });

  it('accepts with the quick check only what class-validator accepts, on generated bodies', async () => {
    const anyBody = generator(20251121);
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      const body = anyBody();
      const { quick, global, ours } = await outcomes(body);
      const shown = JSON.stringify(body)?.slice(0, 300);
      // Never looser than the global pipe; and the route accepts exactly what the quick check
      // accepts, so every valid body takes the quick path.
      if (quick && !global) throw new Error(`the quick check accepts ${shown}`);
      if (ours !== quick) throw new Error(`the pipe ${ours ? 'accepts' : 'rejects'} ${shown}`);
      if (global && !quick) throw new Error(`the quick check rejects the valid ${shown}`);
      if (quick) accepted += 1;
    }
    // Both outcomes must be well represented for the comparison to mean something.
    expect(accepted).toBeGreaterThan(200);
    expect(accepted).toBeLessThan(1800);
  });

  it('agrees at the limits, counted in code points', async () => {
    const cases: Array<[object, boolean]> = [
      [{ category: '😀'.repeat(100) }, true],
      [{ category: '😀'.repeat(101) }, false],
      [{ category: '❤️'.repeat(50) }, true],
      [{ category: '❤️'.repeat(51) }, false],
      [{ category: 'x', positive: '𝕏'.repeat(10_000) }, true],
      [{ category: 'x', positive: '𝕏'.repeat(10_001) }, false],
      [{ category: 'x', userType: '', positive: null }, true],
      [{ category: '' }, false],
      [{ category: 'x\ud800' }, false],
      [{ category: 'x', difficultyScore: Number.MIN_VALUE }, true],
      [{ category: 'x', difficultyScore: -Number.MAX_VALUE }, true],
      [{ category: 'x', difficultyScore: Infinity }, false],
    ];
    for (const [body, valid] of cases) {
      const label = JSON.stringify(body).slice(0, 40);
      expect([label, await outcomes(body)]).toEqual([
        label,
        { quick: valid, global: valid, ours: valid },
      ]);
    }
  });

  it('rejects the properties named like members of Object.prototype, like the global pipe', async () => {
    for (const key of ['toString', 'constructor', 'valueOf', 'hasOwnProperty']) {
      const body = JSON.parse(`{"category":"x","${key}":1}`);
      const expected = [{ path: `/body/${key}`, message: `${key} is not an allowed property` }];
      for (const pipe of [
        () => global.transform(structuredClone(body), BODY),
        () => ours.transform(body),
      ]) {
        const error = await pipe().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).details).toEqual(expected);
      }
    }
    const both = await ours
      .transform(JSON.parse('{"category":"","toString":1,"rating":2}'))
      .catch((e: unknown) => e);
    expect((both as ValidationError).details?.map((d) => d.path)).toEqual([
      '/body/toString',
      '/body/rating',
      '/body/category',
    ]);
  });
});

describe('ProvideFeedbackPipe', () => {
  const pipe = new ProvideFeedbackPipe();
  const global = new RequestValidationPipe();

  it('passes a valid body through as it is', async () => {
    const body = { category: 'ux', difficultyScore: 2, positive: null };
    await expect(pipe.transform(body)).resolves.toBe(body);
  });

  it('answers an invalid body with the details of the global pipe', async () => {
    const body = { category: '', difficultyScore: '2', extra: 1 };
    const ours = await pipe.transform(body).catch((error: unknown) => error);
    const theirs = await global
      .transform(structuredClone(body), BODY)
      .catch((error: unknown) => error);
    expect(ours).toBeInstanceOf(ValidationError);
    expect((ours as ValidationError).details).toEqual((theirs as ValidationError).details);
    expect((ours as ValidationError).details?.map((d) => d.path).sort()).toEqual([
      '/body/category',
      '/body/difficultyScore',
      '/body/extra',
    ]);
  });
});
