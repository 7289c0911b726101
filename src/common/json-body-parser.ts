import type { FastifyInstance } from 'fastify';
import { ErrorDetail, ValidationError } from './errors';

/** Deeper JSON is refused before it is parsed: no request of this API nests beyond a handful. */
export const MAX_JSON_DEPTH = 64;

/** The media types read as JSON (rules.md §2): PATCH bodies come as JSON Patch from Unleash's UI. */
export const JSON_MEDIA_TYPES = ['application/json', 'application/json-patch+json'];

/**
 * Property names refused anywhere in a body: the keys that reach an object's prototype, and the
 * names of Object.prototype's members, which class-transformer skips so that no DTO sees them.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'prototype',
  ...Object.getOwnPropertyNames(Object.prototype),
]);

/** Enough to show a client its mistakes without echoing a whole hostile body back. */
const MAX_DETAILS = 20;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Node 20 has String.prototype.isWellFormed; TypeScript's ES2023 lib does not declare it yet. */
function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

function pointer(key: string): string {
  const printable = (key as unknown as { toWellFormed(): string }).toWellFormed();
  return printable.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** What one pass over a body's text found (scanJsonText). */
export type JsonTextScan = 'too-deep' | 'suspect' | 'clean';

/** The first characters and the lengths of the reserved keys, a cheap test before the set's. */
const RESERVED_FIRST = new Set([...RESERVED_KEYS].map((key) => key.charCodeAt(0)));
const RESERVED_LENGTHS = new Set([...RESERVED_KEYS].map((key) => key.length));

/**
 * One pass over a JSON text, without parsing it, for what must be known before or about the parse:
 * `too-deep` when it nests deeper than the limit (stopping there), else `suspect` when it could
 * hold what collectProblems looks for, else `clean`. Strictly decoded UTF-8 holds no surrogate, so
 * an unpaired one can only come from a `\u` escape; a reserved key is a string that either spells
 * it without escapes or holds a `\u` escape (the other escapes stand for characters no reserved
 * key has). A false alarm only costs the walk. The import's 17 MiB bodies are mostly string
 * contents, so a string is crossed with indexOf (native) rather than character by character.
 */
export function scanJsonText(text: string, limit = MAX_JSON_DEPTH): JsonTextScan {
  let depth = 0;
  let suspect = false;
  // The next backslash at or after the scan's position (-1: none left), found once per escape.
  let backslash = text.indexOf('\\');
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i + 1;
      // A backslash outside strings (invalid JSON, refused by the parse) escapes nothing.
      if (backslash !== -1 && backslash < start) backslash = text.indexOf('\\', start);
      let escaped = false;
      let end = text.indexOf('"', start);
      while (end !== -1 && backslash !== -1 && backslash < end) {
        // An escape: the character after the backslash cannot end the string.
        escaped = true;
        if (text.charCodeAt(backslash + 1) === 0x75) suspect = true;
        const after = backslash + 2;
        backslash = text.indexOf('\\', after);
        if (end < after) end = text.indexOf('"', after);
      }
      if (end === -1) break; // an unterminated string: nothing after it counts
      if (
        !escaped &&
        !suspect &&
        RESERVED_LENGTHS.has(end - start) &&
        RESERVED_FIRST.has(text.charCodeAt(start)) &&
        RESERVED_KEYS.has(text.slice(start, end))
      ) {
        suspect = true;
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return 'too-deep';
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return suspect ? 'suspect' : 'clean';
}

/**
 * Walks a parsed body (at most MAX_JSON_DEPTH deep, so recursion is safe) for what no route
 * accepts: unpaired surrogates in any string or key, and reserved property names at any depth.
 */
function collectProblems(value: unknown, path: string, details: ErrorDetail[]): void {
  if (details.length >= MAX_DETAILS) return;
  if (typeof value === 'string') {
    if (!isWellFormed(value)) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      details.push({
        path,
        message: `${name} must be valid Unicode text (it holds an unpaired surrogate)`,
      });
    }
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => collectProblems(item, `${path}/${index}`, details));
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}/${pointer(key)}`;
    if (!isWellFormed(key)) {
      details.push({ path: at, message: 'a property name must not contain an unpaired surrogate' });
    } else if (RESERVED_KEYS.has(key)) {
      details.push({ path: at, message: `${key} is not an allowed property` });
    }
    collectProblems(item, at, details);
  }
}

/**
 * Reads a JSON request body. An empty body is no body (admin frontends send the JSON content
 * type on bodiless requests too); bytes that are not UTF-8, nesting deeper than the limit,
 * unpaired surrogates and reserved property names are a 400 before any code sees the value.
 */
export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  let text: string;
  try {
    text = strictUtf8.decode(raw);
  } catch {
    throw ValidationError.of('/body', 'The body is not valid UTF-8');
  }
  const scan = scanJsonText(text);
  if (scan === 'too-deep') {
    throw ValidationError.of('/body', `The body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw ValidationError.of('/body', 'The body is not valid JSON');
  }
  const details: ErrorDetail[] = [];
  if (scan === 'suspect') collectProblems(value, '/body', details);
  if (details.length > 0) {
    const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
    throw new ValidationError(`Request validation failed: ${summary}`, details);
  }
  return value;
}

/** Replaces Fastify's JSON parser by parseJsonBody, for every JSON media type. */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['application/json']);
  fastify.addContentTypeParser(JSON_MEDIA_TYPES, { parseAs: 'buffer' }, (_request, raw, done) => {
    try {
      done(null, parseJsonBody(raw as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
