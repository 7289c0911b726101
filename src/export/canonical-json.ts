/**
 * The export splices stored JSON text into its document instead of parsing it and serialising
 * it again (issue 15). That is only byte-identical to `JSON.stringify(JSON.parse(text))` when the
 * text is already in that form, so `canonicalScan` checks it in one pass over the characters,
 * conservatively: anything it is not sure of (whitespace, `\u` or `\/` escapes, numbers other
 * than short integers, keys that look like array indexes, which JSON.parse would reorder,
 * duplicate keys, which it would collapse) answers "not canonical", and the caller falls back to
 * parse and stringify. Every writer of the app stores JSON.stringify output, so the fallback is
 * for rows written some other way (by hand, by an older version).
 *
 * While it scans, it hands the values found at given paths to a sink: that is how the export
 * collects the context-field names, segment ids and tag types of its items without parsing them.
 */

/** A path from the document's root: a key, or `null` for any element of an array. */
export type JsonPath = ReadonlyArray<string | null>;

export interface PathSink {
  path: JsonPath;
  /** What the sink takes at `path`: strings (the default), or integers as their digits. */
  kind?: 'string' | 'integer';
  /** Called with each value found at `path`; a value of another kind there fails the scan. */
  take: (value: string) => void;
}

/** Beyond 15 digits an integer may not survive a round trip through a double. */
const MAX_INTEGER_DIGITS = 15;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** Characters that may follow a backslash in JSON.stringify output, apart from `u`. */
function isShortEscape(code: number): boolean {
  // " \ b f n r t
  return (
    code === QUOTE ||
    code === BACKSLASH ||
    code === 0x62 ||
    code === 0x66 ||
    code === 0x6e ||
    code === 0x72 ||
    code === 0x74
  );
}

class Scanner {
  private i = 0;
  private readonly path: Array<string | null> = [];
  /** What the sinks get once the whole text has passed. */
  readonly found: Array<{ sink: PathSink; value: string }> = [];

  constructor(
    private readonly text: string,
    private readonly sinks: readonly PathSink[],
  ) {}

  scan(opener: '[' | '{'): boolean {
    if (this.text[0] !== opener) return false;
    return this.value() && this.i === this.text.length;
  }

  /** The sink whose path is the current one, if any. */
  private sinkHere(): PathSink | undefined {
    const depth = this.path.length;
    for (const sink of this.sinks) {
      if (sink.path.length !== depth) continue;
      let same = true;
      for (let d = depth - 1; d >= 0 && same; d -= 1) same = sink.path[d] === this.path[d];
      if (same) return sink;
    }
    return undefined;
  }

  private value(): boolean {
    const code = this.text.charCodeAt(this.i);
    const sink = this.sinks.length > 0 ? this.sinkHere() : undefined;
    if (code === QUOTE) {
      if (sink?.kind === 'integer') return false;
      const start = this.i;
      const end = this.string();
      if (end < 0) return false;
      if (sink) {
        const raw = this.text.slice(start, end + 1);
        const value = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        this.found.push({ sink, value });
      }
      return true;
    }
    if (sink) {
      if (sink.kind !== 'integer') return false;
      const start = this.i;
      if (!this.integer()) return false;
      this.found.push({ sink, value: this.text.slice(start, this.i) });
      return true;
    }
    if (code === 0x7b) return this.object();
    if (code === 0x5b) return this.array();
    if (code === 0x74) return this.word('true');
    if (code === 0x66) return this.word('false');
    if (code === 0x6e) return this.word('null');
    return this.integer();
  }

  /** A string at `i` (its opening quote); returns the index of its closing quote, or -1. */
  private string(): number {
    const text = this.text;
    let j = this.i + 1;
    for (;;) {
      if (j >= text.length) return -1;
      const code = text.charCodeAt(j);
      if (code === QUOTE) break;
      if (code === BACKSLASH) {
        if (!isShortEscape(text.charCodeAt(j + 1))) return -1;
        j += 2;
        continue;
      }
      if (code < 0x20) return -1;
      if (code >= 0xd800 && code <= 0xdfff) {
        // JSON.stringify escapes a lone surrogate; a well-formed pair is written as is.
        const next = text.charCodeAt(j + 1);
        if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return -1;
        j += 2;
        continue;
      }
      j += 1;
    }
    this.i = j + 1;
    return j;
  }

  private object(): boolean {
    const text = this.text;
    this.i += 1;
    if (text.charCodeAt(this.i) === 0x7d) {
      this.i += 1;
      return true;
    }
    const keys: string[] = [];
    for (;;) {
      if (text.charCodeAt(this.i) !== QUOTE) return false;
      const start = this.i + 1;
      const end = this.string();
      if (end < 0) return false;
      const key = text.slice(start, end);
      // An escaped key is rare enough to leave to the fallback; a key starting with a digit may
      // be an array index, which JSON.parse moves ahead of the other keys.
      if (key.includes('\\')) return false;
      const first = key.charCodeAt(0);
      if (first >= ZERO && first <= NINE) return false;
      if (keys.includes(key)) return false;
      keys.push(key);
      if (text.charCodeAt(this.i) !== COLON) return false;
      this.i += 1;
      this.path.push(key);
      const ok = this.value();
      this.path.pop();
      if (!ok) return false;
      const next = text.charCodeAt(this.i);
      this.i += 1;
      if (next === 0x7d) return true;
      if (next !== COMMA) return false;
    }
  }

  private array(): boolean {
    const text = this.text;
    this.i += 1;
    if (text.charCodeAt(this.i) === 0x5d) {
      this.i += 1;
      return true;
    }
    this.path.push(null);
    try {
      for (;;) {
        if (!this.value()) return false;
        const next = text.charCodeAt(this.i);
        this.i += 1;
        if (next === 0x5d) return true;
        if (next !== COMMA) return false;
      }
    } finally {
      this.path.pop();
    }
  }

  private word(word: string): boolean {
    if (!this.text.startsWith(word, this.i)) return false;
    this.i += word.length;
    return true;
  }

  /** `-?(0|[1-9][0-9]*)`, short, not `-0`; a fraction or exponent stops at the caller. */
  private integer(): boolean {
    const text = this.text;
    let j = this.i;
    if (text.charCodeAt(j) === MINUS) j += 1;
    const first = text.charCodeAt(j);
    if (!(first >= ZERO && first <= NINE)) return false;
    if (first === ZERO) {
      if (j > this.i) return false; // -0 becomes 0
      j += 1;
    } else {
      const digitsStart = j;
      while (j < text.length) {
        const code = text.charCodeAt(j);
        if (code < ZERO || code > NINE) break;
        j += 1;
      }
      if (j - digitsStart > MAX_INTEGER_DIGITS) return false;
    }
    this.i = j;
    return true;
  }
}

/**
 * Whether `JSON.stringify(JSON.parse(text)) === text` holds for certain, `text` being an array or
 * object as `opener` says. False also means "not sure". The sinks are called only when it answers
 * true, so a caller that falls back collects from the parsed value alone.
 */
export function canonicalScan(
  text: string,
  opener: '[' | '{',
  sinks: readonly PathSink[] = [],
): boolean {
  try {
    const scanner = new Scanner(text, sinks);
    if (!scanner.scan(opener)) return false;
    for (const { sink, value } of scanner.found) sink.take(value);
    return true;
  } catch (error) {
    // Deeply nested text can exhaust the stack; the fallback then decides.
    if (error instanceof RangeError) return false;
    throw error;
  }
}
