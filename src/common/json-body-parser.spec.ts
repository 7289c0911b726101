import { ValidationError } from './errors';
import { MAX_JSON_DEPTH, parseJsonBody, scanJsonText } from './json-body-parser';

/** The depth count the parser used before scanJsonText, character by character: the reference. */
function nestsDeeper(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === '[' || c === '{') {
      if (++depth > limit) return true;
    } else if (c === ']' || c === '}') {
      depth--;
    }
  }
  return false;
}

const RESERVED = ['__proto__', 'prototype', ...Object.getOwnPropertyNames(Object.prototype)];

/** Whether the parsed body holds a reserved key or an unpaired surrogate anywhere. */
function holdsProblem(value: unknown): boolean {
  const bad = (text: string) => !(text as unknown as { isWellFormed(): boolean }).isWellFormed();
  if (typeof value === 'string') return bad(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsProblem);
  return Object.entries(value).some(
    ([key, item]) => RESERVED.includes(key) || bad(key) || holdsProblem(item),
  );
}

/** A small deterministic generator, so that a failure repeats. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('scanJsonText', () => {
  it('counts depth as the character-by-character count does, on any text', () => {
    const next = random(7);
    const pieces = ['{', '}', '[', ']', '"', '\\', '\\"', '\\\\', 'a', ':', ',', 'u', ' '];
    for (let round = 0; round < 2000; round++) {
      let text = '';
      const length = Math.floor(next() * 60);
      for (let i = 0; i < length; i++) text += pieces[Math.floor(next() * pieces.length)];
      for (const limit of [0, 1, 2, 3, 5]) {
        expect([text, limit, scanJsonText(text, limit) === 'too-deep']).toEqual([
          text,
          limit,
          nestsDeeper(text, limit),
        ]);
      }
    }
  });

  it('is suspect whenever the parsed body holds a reserved key or an unpaired surrogate', () => {
    const next = random(11);
    const benign = ['a', 'constructors', 'xprototype', 'to"String', 'b\\c', 'é', 'tab\there', '😀'];
    const hostile = [...RESERVED, '\ud800', 'x\udc00y'];
    // Mostly benign, so that one hostile string decides whether a body holds a problem.
    const pick = () =>
      next() < 0.02
        ? hostile[Math.floor(next() * hostile.length)]
        : benign[Math.floor(next() * benign.length)];
    const build = (depth: number): unknown => {
      const kind = Math.floor(next() * (depth > 3 ? 2 : 4));
      if (kind === 0) return pick();
      if (kind === 1) return Math.floor(next() * 100);
      if (kind === 2) return [build(depth + 1), build(depth + 1)];
      const object: Record<string, unknown> = {};
      for (let i = 0; i < 3; i++) {
        const key = pick();
        Object.defineProperty(object, key, {
          value: build(depth + 1),
          enumerable: true,
          writable: true,
        });
      }
      return object;
    };
    // Some letters of the text spelled as \u escapes, which JSON.parse reads as the letters.
    const escapeSome = (text: string) =>
      text.replace(/\\u[0-9a-f]{4}|\\.|[a-z_]/g, (c) =>
        c.length === 1 && next() < 0.05 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c,
      );
    let suspects = 0;
    for (let round = 0; round < 3000; round++) {
      // Escapes in one body of five: any `\\u` makes a body suspect, which the other four test.
      const json = JSON.stringify(build(0));
      const text = round % 5 === 0 ? escapeSome(json) : json;
      const scan = scanJsonText(text);
      if (holdsProblem(JSON.parse(text))) {
        expect([text, scan]).toEqual([text, 'suspect']);
        suspects++;
      }
    }
    // Enough bodies with a problem for the test to mean something.
    expect(suspects).toBeGreaterThan(100);
  });

  it('is clean for a body without escapes or reserved names, and suspect for each kind', () => {
    expect(scanJsonText('{"name":"constructors","a":["xprototype","toStrin"]}')).toBe('clean');
    expect(scanJsonText('{"name":"a\\"constructor","b":"\\\\"}')).toBe('clean');
    expect(scanJsonText('{"a":"\\u005f_proto__"}')).toBe('suspect');
    expect(scanJsonText('{"a":"\\\\","b":"valueOf"}')).toBe('suspect');
    for (const key of RESERVED) expect(scanJsonText(`{"${key}":1}`)).toBe('suspect');
    expect(scanJsonText(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBe(
      'clean',
    );
    expect(scanJsonText('['.repeat(MAX_JSON_DEPTH + 1))).toBe('too-deep');
  });
});

describe('parseJsonBody', () => {
  const parse = (text: string) => parseJsonBody(Buffer.from(text));
  const failure = (text: string) => {
    try {
      parse(text);
    } catch (error) {
      return error instanceof ValidationError ? error.message : error;
    }
    return undefined;
  };

  it('answers depth before syntax, then syntax, then reserved keys and surrogates', () => {
    expect(failure('[[[[' + '['.repeat(MAX_JSON_DEPTH))).toBe(
      `The body nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
    expect(failure('{"a":')).toBe('The body is not valid JSON');
    expect(failure('{"a":{"\\u0063onstructor":1}}')).toBe(
      'Request validation failed: /body/a/constructor: constructor is not an allowed property',
    );
    expect(failure('{"b":"\\ud800"}')).toBe(
      'Request validation failed: /body/b: b must be valid Unicode text (it holds an unpaired surrogate)',
    );
    expect(parse('{"a":"constructors","b":"\\u00e9"}')).toEqual({ a: 'constructors', b: 'é' });
  });
});
