import { ErrorDetail, ValidationError } from './errors';

/**
 * JSON Patch (RFC 6902) applied to a JSON document: add, remove, replace, move, copy and test.
 * Admin frontends send it where they edit a list in place (Unleash's UI patches a feature's
 * variants with the difference between the old and the new list). The document is copied first
 * and every operation checked, so a patch that fails anywhere changes nothing. Errors name the
 * operation (`/body/<index>/...`) and what is wrong, never the document's content.
 */

const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const;
type Op = (typeof OPS)[number];
const KEYS = new Set(['op', 'path', 'from', 'value']);
/** Keys that would reach an object's prototype instead of the object (rules.md on hostile input). */
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_OPERATIONS = 1000;

type Json = unknown;
type Container = Record<string, Json> | Json[];

class PatchProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function parsePointer(pointer: unknown, field: string): string[] {
  if (typeof pointer !== 'string') throw new PatchProblem(field, `${field} must be a string`);
  if (pointer === '') return [];
  if (!pointer.startsWith('/'))
    throw new PatchProblem(field, `${field} must be a JSON pointer starting with /`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
      if (FORBIDDEN.has(key)) throw new PatchProblem(field, `${field} may not name ${key}`);
      return key;
    });
}

function isContainer(value: Json): value is Container {
  return typeof value === 'object' && value !== null;
}

function arrayIndex(array: Json[], key: string, field: string, forInsert: boolean): number {
  if (forInsert && key === '-') return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(key))
    throw new PatchProblem(field, `${field}: ${key} is not an array index`);
  const index = Number(key);
  if (index > array.length || (!forInsert && index === array.length))
    throw new PatchProblem(field, `${field}: index ${index} is out of range`);
  return index;
}

/** The container holding the pointer's last token, and that token. */
function parentOf(document: Json, tokens: string[], field: string): [Container, string] {
  let node = document;
  for (const key of tokens.slice(0, -1)) {
    if (!isContainer(node)) throw new PatchProblem(field, `${field} does not exist`);
    if (Array.isArray(node)) node = node[arrayIndex(node, key, field, false)];
    else if (Object.hasOwn(node, key)) node = node[key];
    else throw new PatchProblem(field, `${field} does not exist`);
  }
  if (!isContainer(node)) throw new PatchProblem(field, `${field} does not exist`);
  return [node, tokens[tokens.length - 1]];
}

function read(document: Json, tokens: string[], field: string): Json {
  if (tokens.length === 0) return document;
  const [parent, key] = parentOf(document, tokens, field);
  if (Array.isArray(parent)) return parent[arrayIndex(parent, key, field, false)];
  if (!Object.hasOwn(parent, key)) throw new PatchProblem(field, `${field} does not exist`);
  return parent[key];
}

function remove(document: Json, tokens: string[], field: string): Json {
  if (tokens.length === 0) throw new PatchProblem(field, `${field} may not be the whole document`);
  const [parent, key] = parentOf(document, tokens, field);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, key, field, false), 1)[0];
  if (!Object.hasOwn(parent, key)) throw new PatchProblem(field, `${field} does not exist`);
  const removed = parent[key];
  delete parent[key];
  return removed;
}

function add(document: Json, tokens: string[], value: Json, field: string): Json {
  if (tokens.length === 0) return value;
  const [parent, key] = parentOf(document, tokens, field);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, field, true), 0, value);
  else parent[key] = value;
  return document;
}

function deepEqual(a: Json, b: Json): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: Json): Json {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isContainer(value)) return value;
  const record = value as Record<string, Json>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, canonical(record[key])]),
  );
}

function applyOne(document: Json, operation: Record<string, Json>): Json {
  const op = operation.op as Op;
  const path = parsePointer(operation.path, 'path');
  const needsValue = op === 'add' || op === 'replace' || op === 'test';
  if (needsValue && !('value' in operation)) throw new PatchProblem('value', 'value is required');
  const value = structuredClone(operation.value);
  switch (op) {
    case 'add':
      return add(document, path, value, 'path');
    case 'remove':
      remove(document, path, 'path');
      return document;
    case 'replace':
      if (path.length === 0) return value;
      read(document, path, 'path');
      remove(document, path, 'path');
      return add(document, path, value, 'path');
    case 'test':
      if (!deepEqual(read(document, path, 'path'), value))
        throw new PatchProblem('value', 'test failed: the value at path differs');
      return document;
    case 'move': {
      const from = parsePointer(operation.from, 'from');
      if (from.length < path.length && from.every((key, i) => path[i] === key))
        throw new PatchProblem('from', 'from may not be a parent of path');
      const moved = remove(document, from, 'from');
      return add(document, path, moved, 'path');
    }
    case 'copy': {
      const from = parsePointer(operation.from, 'from');
      return add(document, path, structuredClone(read(document, from, 'from')), 'path');
    }
  }
}

/** The document after the patch, or a 400 listing what is wrong with the patch. */
export function applyJsonPatch(document: Json, patch: unknown): Json {
  if (!Array.isArray(patch)) {
    throw ValidationError.of('/body', 'The body must be a JSON Patch array of operations');
  }
  if (patch.length > MAX_OPERATIONS) {
    throw ValidationError.of('/body', `The patch may hold at most ${MAX_OPERATIONS} operations`);
  }
  const details: ErrorDetail[] = [];
  patch.forEach((operation, index) => {
    const at = `/body/${index}`;
    if (!isContainer(operation) || Array.isArray(operation)) {
      details.push({ path: at, message: 'must be a JSON Patch operation {op, path, ...}' });
      return;
    }
    for (const key of Object.keys(operation)) {
      if (!KEYS.has(key)) details.push({ path: `${at}/${key}`, message: `${key} is not allowed` });
    }
    if (!(OPS as readonly Json[]).includes(operation.op)) {
      details.push({ path: `${at}/op`, message: `op must be one of ${OPS.join(', ')}` });
    }
  });
  if (details.length > 0) throw ValidationError.listing(details);
  let result = structuredClone(document);
  patch.forEach((operation: Record<string, Json>, index) => {
    try {
      result = applyOne(result, operation);
    } catch (error) {
      if (!(error instanceof PatchProblem)) throw error;
      throw ValidationError.of(`/body/${index}/${error.field}`, error.message);
    }
  });
  return result;
}
