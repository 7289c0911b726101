import { ValidationError } from '../common/errors';
import { Fail, parseDay, splitOperator } from '../common/query-validators';
import type { FeatureSearchQueryDto } from './dto/feature-search.dto';
import { FEATURE_TYPES } from './feature.entity';
import { LIFECYCLE_STAGES } from './feature-lifecycle.entity';

/*
 * Unleash's search operators (`IS:default`, `INCLUDE_ANY_OF:simple:a,simple:b`) parsed into a
 * typed filter. Everything the SQL needs is decided here, so that an unknown operator, field or
 * value is a 400 before any statement runs.
 */

export const IS_OPERATORS = ['IS', 'IS_NOT', 'IS_ANY_OF', 'IS_NONE_OF'] as const;
export const INCLUDE_OPERATORS = [
  'INCLUDE',
  'INCLUDE_ANY_OF',
  'INCLUDE_ALL_OF',
  'DO_NOT_INCLUDE',
  'EXCLUDE_IF_ANY_OF',
  'EXCLUDE_ALL',
] as const;
export const DATE_OPERATORS = ['IS_BEFORE', 'IS_ON_OR_AFTER'] as const;

/** Values of a field: `in` keeps the features whose value is one of them, `notIn` the others. */
export interface SetCondition<T> {
  negated: boolean;
  values: T[];
}

export interface TagCondition {
  /** any: one of the tags; all: every tag. */
  match: 'any' | 'all';
  negated: boolean;
  tags: Array<{ type: string; value: string }>;
}

export interface SegmentCondition {
  match: 'any' | 'all';
  negated: boolean;
  names: string[];
}

export const SORT_FIELDS = ['createdAt', 'name', 'type', 'stale', 'project', 'lastSeenAt'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export interface FeatureSearchFilter {
  /** Lower-cased free-text terms; a feature matches any of them. */
  terms: string[];
  archived: boolean;
  project?: SetCondition<string>;
  type?: SetCondition<string>;
  /** true: stale, false: active. */
  stale?: SetCondition<boolean>;
  /** Lifecycle stage ranks (index in LIFECYCLE_STAGES). */
  lifecycle?: SetCondition<number>;
  createdBy?: SetCondition<number>;
  createdBefore?: Date;
  createdOnOrAfter?: Date;
  /** On the latest lastSeenAt of the feature's environments. */
  seenBefore?: Date;
  seenOnOrAfter?: Date;
  tag?: TagCondition;
  /** Segment names, matched as tags are (any/all, negated). */
  segment?: SegmentCondition;
  /** Environment states, any of which keeps a feature. */
  status?: Array<{ environment: string; enabled: boolean }>;
  /** The signed-in user's favorites first (set by the service; a token has none). */
  favoritesFirst: boolean;
  sort: { field: SortField } | { environment: string };
  descending: boolean;
  offset: number;
  limit: number;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

export function parseFeatureSearch(query: FeatureSearchQueryDto): FeatureSearchFilter {
  const details: Array<{ path: string; message: string }> = [];
  const fail = (field: string, message: string) => {
    details.push({ path: `/query/${field}`, message });
    return undefined;
  };

  const isCondition = <T>(
    field: 'project' | 'type' | 'state' | 'lifecycle' | 'createdBy',
    convert: (value: string) => T | undefined,
    allowed: string,
  ): SetCondition<T> | undefined => {
    const parsed = splitOperator(query[field], IS_OPERATORS, field, fail);
    if (!parsed) return undefined;
    const values: T[] = [];
    for (const raw of parsed.values) {
      const value = convert(raw);
      if (value === undefined) return fail(field, `${raw} is not one of ${allowed}`);
      values.push(value);
    }
    return { negated: parsed.operator === 'IS_NOT' || parsed.operator === 'IS_NONE_OF', values };
  };

  // Flagkeeper does not compute "potentially stale" (null here): such a feature never exists.
  const state = isCondition<boolean | null>(
    'state',
    (v) =>
      v === 'stale' ? true : v === 'active' ? false : v === 'potentially-stale' ? null : undefined,
    'stale, active, potentially-stale',
  );
  const filter: FeatureSearchFilter = {
    terms: (query.query ?? '')
      .split(',')
      .map((term) => term.trim().toLowerCase())
      .filter((term) => term.length > 0),
    archived: parseArchived(query.archived, fail),
    project: isCondition('project', (v) => v, 'project ids'),
    type: isCondition(
      'type',
      (v) => ((FEATURE_TYPES as readonly string[]).includes(v) ? v : undefined),
      FEATURE_TYPES.join(', '),
    ),
    stale: state && {
      negated: state.negated,
      values: state.values.filter((v): v is boolean => v !== null),
    },
    lifecycle: isCondition(
      'lifecycle',
      (v) => {
        const rank = (LIFECYCLE_STAGES as readonly string[]).indexOf(v);
        return rank >= 0 ? rank : undefined;
      },
      LIFECYCLE_STAGES.join(', '),
    ),
    createdBy: isCondition(
      'createdBy',
      (v) => (/^\d{1,9}$/.test(v) ? Number(v) : undefined),
      'user ids (integers)',
    ),
    tag: parseTags(query.tag, fail),
    segment: parseSegments(query.segment, fail),
    status: parseStatus(query.status, fail),
    favoritesFirst:
      parseChoice(query.favoritesFirst, ['true', 'false'], 'favoritesFirst', fail) === 'true',
    sort: parseSort(query.sortBy, fail),
    descending: parseChoice(query.sortOrder, ['asc', 'desc'], 'sortOrder', fail) === 'desc',
    offset: parseCount(query.offset, 'offset', 0, Number.MAX_SAFE_INTEGER, 0, fail),
    limit: parseCount(query.limit, 'limit', 1, MAX_LIMIT, DEFAULT_LIMIT, fail),
  };
  const created = parseDateCondition(query.createdAt, 'createdAt', fail);
  if (created) [filter.createdBefore, filter.createdOnOrAfter] = created;
  const seen = parseDateCondition(query.lastSeenAt, 'lastSeenAt', fail);
  if (seen) [filter.seenBefore, filter.seenOnOrAfter] = seen;
  if (details.length > 0) throw ValidationError.listing(details, 'Invalid search query');
  return filter;
}

function parseArchived(raw: string | undefined, fail: Fail): boolean {
  if (raw === undefined || raw === 'IS:false') return false;
  if (raw === 'IS:true') return true;
  fail('archived', 'archived must be IS:true or IS:false');
  return false;
}

function parseTags(raw: string | undefined, fail: Fail): TagCondition | undefined {
  const parsed = splitOperator(raw, INCLUDE_OPERATORS, 'tag', fail);
  if (!parsed) return undefined;
  const tags: TagCondition['tags'] = [];
  for (const item of parsed.values) {
    const colon = item.indexOf(':');
    if (colon <= 0 || colon === item.length - 1) {
      return fail('tag', `${item} is not a tag; tags are type:value`);
    }
    tags.push({ type: item.slice(0, colon), value: item.slice(colon + 1) });
  }
  return { ...includeMatch(parsed.operator), tags };
}

/** What an include operator asks of a set of names: any or all of them, present or absent. */
function includeMatch(op: (typeof INCLUDE_OPERATORS)[number]): {
  match: 'any' | 'all';
  negated: boolean;
} {
  return {
    match: op === 'INCLUDE_ALL_OF' || op === 'EXCLUDE_ALL' ? 'all' : 'any',
    negated: op === 'DO_NOT_INCLUDE' || op === 'EXCLUDE_IF_ANY_OF' || op === 'EXCLUDE_ALL',
  };
}

/** Segment names with the tag operators: Unleash's semantics, on the segments strategies use. */
function parseSegments(raw: string | undefined, fail: Fail): SegmentCondition | undefined {
  const parsed = splitOperator(raw, INCLUDE_OPERATORS, 'segment', fail);
  if (!parsed) return undefined;
  return { ...includeMatch(parsed.operator), names: [...new Set(parsed.values)] };
}

/** `environment:enabled|disabled` items, repeated or comma-separated (Unleash's `status`). */
function parseStatus(
  raw: string | string[] | undefined,
  fail: Fail,
): FeatureSearchFilter['status'] {
  if (raw === undefined) return undefined;
  const items = (Array.isArray(raw) ? raw : [raw])
    .flatMap((value) => value.split(','))
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  if (items.length === 0) return fail('status', 'status needs at least one environment:state');
  if (items.length > 100) return fail('status', 'status takes at most 100 items');
  const states: NonNullable<FeatureSearchFilter['status']> = [];
  for (const item of items) {
    const colon = item.lastIndexOf(':');
    const state = item.slice(colon + 1);
    if (colon <= 0 || (state !== 'enabled' && state !== 'disabled')) {
      return fail('status', `${item} is not environment:enabled or environment:disabled`);
    }
    states.push({ environment: item.slice(0, colon), enabled: state === 'enabled' });
  }
  return states;
}

/** IS_BEFORE / IS_ON_OR_AFTER with one day: [before, onOrAfter], one of them set. */
function parseDateCondition(
  raw: string | undefined,
  field: string,
  fail: Fail,
): [Date | undefined, Date | undefined] | undefined {
  const parsed = splitOperator(raw, DATE_OPERATORS, field, fail);
  if (!parsed) return undefined;
  const date = parsed.values.length === 1 ? parseDay(parsed.values[0]) : undefined;
  if (!date) return fail(field, `${field} takes one date, YYYY-MM-DD`);
  return parsed.operator === 'IS_BEFORE' ? [date, undefined] : [undefined, date];
}

function parseSort(raw: string | undefined, fail: Fail): FeatureSearchFilter['sort'] {
  if (raw === undefined) return { field: 'createdAt' };
  if (raw.startsWith('environment:') && raw.length > 'environment:'.length) {
    return { environment: raw.slice('environment:'.length) };
  }
  if ((SORT_FIELDS as readonly string[]).includes(raw)) return { field: raw as SortField };
  fail('sortBy', `sortBy must be one of ${SORT_FIELDS.join(', ')} or environment:<name>`);
  return { field: 'createdAt' };
}

function parseChoice(
  raw: string | undefined,
  choices: string[],
  field: string,
  fail: Fail,
): string | undefined {
  if (raw === undefined || choices.includes(raw)) return raw;
  return fail(field, `${field} must be ${choices.join(' or ')}`);
}

function parseCount(
  raw: string | undefined,
  field: string,
  min: number,
  max: number,
  fallback: number,
  fail: Fail,
): number {
  if (raw === undefined) return fallback;
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    fail(field, `${field} must be an integer from ${min} to ${max}`);
    return fallback;
  }
  return value;
}
