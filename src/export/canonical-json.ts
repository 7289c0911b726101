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
const COMMA = 0x2c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

// Most of an item's characters are inside strings, so strings and keys are matched by sticky
// regexes: V8's compiled matcher walks a run of plain characters in about half the time of a
// loop of charCodeAt calls (measured on the CI machine; the scan was about a third of the
// export's CPU, docs/benchmarks.md).
//
// A string in JSON.stringify's form: plain characters (not a quote, a backslash, a control
// character or a surrogate), the short escapes, and surrogates only in well-formed pairs. Written
// as a plain run followed by (escape or pair, plain run)*: no character can start both, so a
// failing match cannot backtrack into other ways of splitting the text.
/* eslint-disable no-control-regex -- control characters are what these rule out */
const STRING =
  /"[^"\\\u0000-\u001f\ud800-\udfff]*(?:(?:\\["\\bfnrt]|[\ud800-\udbff][\udc00-\udfff])[^"\\\u0000-\u001f\ud800-\udfff]*)*"/y;
// An object key and its colon, as the scan accepts it: plain characters only (an escaped key is
// rare enough to leave to the fallback), and not starting with a digit (it may be an array index,
// which JSON.parse moves ahead of the other keys).
const KEY = /"(?:[^"\\\u0000-\u001f\ud800-\udfff0-9][^"\\\u0000-\u001f\ud800-\udfff]*)?":/y;
/* eslint-enable no-control-regex */

/** The sinks' paths as a tree, so that the scan follows it rather than comparing paths. */
interface PathNode {
  members: Array<{ key: string; node: PathNode }>;
  elements?: PathNode;
  sink?: PathSink;
}

/** The export passes the same sinks for every item of a list: their tree is built once. */
const trees = new WeakMap<readonly PathSink[], PathNode>();

function pathTree(sinks: readonly PathSink[]): PathNode | undefined {
  if (sinks.length === 0) return undefined;
  let root = trees.get(sinks);
  if (root) return root;
  root = { members: [] };
  for (const sink of sinks) {
    let node = root;
    for (const step of sink.path) {
      if (step === null) {
        node.elements ??= { members: [] };
        node = node.elements;
      } else {
        let member = node.members.find((m) => m.key === step);
        if (!member) {
          member = { key: step, node: { members: [] } };
          node.members.push(member);
        }
        node = member.node;
      }
    }
    node.sink = sink;
  }
  trees.set(sinks, root);
  return root;
}

class Scanner {
  private i = 0;
  /** Start and end of each key of the objects open, for the duplicate check. */
  private readonly keys: number[] = [];
  /** What the sinks get once the whole text has passed. */
  readonly found: Array<{ sink: PathSink; value: string }> = [];

  constructor(private readonly text: string) {}

  scan(opener: '[' | '{', tree: PathNode | undefined): boolean {
    if (this.text[0] !== opener) return false;
    return this.value(tree) && this.i === this.text.length;
  }

  /** A value at `i`; `node` is where the sinks' tree is at this point of the path, if anywhere. */
  private value(node: PathNode | undefined): boolean {
    const code = this.text.charCodeAt(this.i);
    if (node?.sink) return this.sinkValue(node.sink, code);
    if (code === QUOTE) return this.string();
    if (code === OPEN_BRACE) return this.object(node);
    if (code === OPEN_BRACKET) return this.array(node);
    if (code === 0x74) return this.word('true');
    if (code === 0x66) return this.word('false');
    if (code === 0x6e) return this.word('null');
    return this.integer();
  }

  /** A value a sink takes: a string, or an integer for an integer sink; anything else fails. */
  private sinkValue(sink: PathSink, code: number): boolean {
    const start = this.i;
    if (sink.kind === 'integer') {
      if (!this.integer()) return false;
      this.found.push({ sink, value: this.text.slice(start, this.i) });
      return true;
    }
    if (code !== QUOTE || !this.string()) return false;
    const raw = this.text.slice(start, this.i);
    const value = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
    this.found.push({ sink, value });
    return true;
  }

  private string(): boolean {
    STRING.lastIndex = this.i;
    if (!STRING.test(this.text)) return false;
    this.i = STRING.lastIndex;
    return true;
  }

  private object(node: PathNode | undefined): boolean {
    const text = this.text;
    this.i += 1;
    if (text.charCodeAt(this.i) === CLOSE_BRACE) {
      this.i += 1;
      return true;
    }
    const first = this.keys.length;
    for (;;) {
      const start = this.i;
      KEY.lastIndex = start;
      if (!KEY.test(text)) return false;
      const end = KEY.lastIndex;
      if (this.repeated(first, start, end)) return false;
      this.keys.push(start, end);
      this.i = end;
      // The key's characters lie between its quotes, before the colon.
      if (!this.value(node && member(node, text, start + 1, end - 2))) return false;
      const next = text.charCodeAt(this.i);
      this.i += 1;
      if (next === CLOSE_BRACE) {
        this.keys.length = first;
        return true;
      }
      if (next !== COMMA) return false;
    }
  }

  /**
   * Whether the key at start…end (quotes and colon included) is one the object already has.
   * Keys have no escapes, so the same key is the same text.
   */
  private repeated(first: number, start: number, end: number): boolean {
    const text = this.text;
    const length = end - start;
    for (let k = first; k < this.keys.length; k += 2) {
      const other = this.keys[k];
      if (this.keys[k + 1] - other !== length) continue;
      let j = 1;
      while (j < length && text.charCodeAt(other + j) === text.charCodeAt(start + j)) j += 1;
      if (j === length) return true;
    }
    return false;
  }

  private array(node: PathNode | undefined): boolean {
    const text = this.text;
    this.i += 1;
    if (text.charCodeAt(this.i) === CLOSE_BRACKET) {
      this.i += 1;
      return true;
    }
    const elements = node?.elements;
    for (;;) {
      if (!this.value(elements)) return false;
      const next = text.charCodeAt(this.i);
      this.i += 1;
      if (next === CLOSE_BRACKET) return true;
      if (next !== COMMA) return false;
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

/** The child of `node` for the key at `start…end` of `text`, without cutting the key out. */
function member(node: PathNode, text: string, start: number, end: number): PathNode | undefined {
  for (const { key, node: child } of node.members) {
    if (key.length === end - start && text.startsWith(key, start)) return child;
  }
  return undefined;
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
    const scanner = new Scanner(text);
    if (!scanner.scan(opener, pathTree(sinks))) return false;
    for (const { sink, value } of scanner.found) sink.take(value);
    return true;
  } catch (error) {
    // Deeply nested text can exhaust the stack; the fallback then decides.
    if (error instanceof RangeError) return false;
    throw error;
  }
}
