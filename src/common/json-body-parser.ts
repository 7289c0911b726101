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

/** The nesting depth of a JSON text, counted without parsing it; stops early past the limit. */
export function exceedsDepth(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // the escaped character cannot end the string
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
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
 * Whether a body's text could hold what collectProblems looks for, by substring checks that are
 * much cheaper than walking the parsed value (the import's 17 MiB bodies: ~130,000 objects).
 * Strictly decoded UTF-8 holds no surrogate, so an unpaired one can only come from a `\u`
 * escape; a reserved key appears either as itself in quotes or spelled with a `\u` escape (the
 * other escapes stand for characters no reserved key has). A false alarm only costs the walk.
 */
function mayHoldProblems(text: string): boolean {
  if (text.includes('\\u')) return true;
  for (const key of RESERVED_KEYS) if (text.includes(`"${key}"`)) return true;
  return false;
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
  if (exceedsDepth(text)) {
    throw ValidationError.of('/body', `The body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw ValidationError.of('/body', 'The body is not valid JSON');
  }
  const details: ErrorDetail[] = [];
  if (mayHoldProblems(text)) collectProblems(value, '/body', details);
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
