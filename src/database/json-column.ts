import type { ValueTransformer } from 'typeorm';

/**
 * JSON documents are stored as text on both databases, so raw queries read a string everywhere;
 * this transformer is the one place where entities turn them into values and back.
 */
export function jsonTransformer<T>(fallback: T): ValueTransformer {
  return {
    to: (value: T | undefined | null) => JSON.stringify(value ?? fallback),
    from: (value: string | T | null) => parseJson(value, fallback),
  };
}

export function parseJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value !== 'string') return value as T;
  return JSON.parse(value) as T;
}
