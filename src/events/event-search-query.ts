import { ValidationError } from '../common/errors';
import {
  DATE_TIME_WITH_ZONE_MESSAGE,
  Fail,
  isDateTimeWithZone,
  parseDay,
  splitOperator,
} from '../common/query-validators';
import type { EventQueryDto } from './dto/event.dto';
import type { EventFilter } from './events.store';

/*
 * The event search's query: each filter in its plain form (`type=feature-created`, `from=<ISO
 * date-time>`), as our own clients send it, or in Unleash's operator form, as its admin UI's
 * event log sends it (`type=IS_ANY_OF:a,b`, `from=IS:2026-01-31`, `createdBy=IS:<user id>`).
 * A value beginning with capitals and a colon is read as an operator, so an unknown operator is
 * a 400 rather than a search for a literal value that matches nothing.
 */

const LIST_OPERATORS = ['IS', 'IS_ANY_OF'] as const;
const DAY_OPERATORS = ['IS'] as const;
const OPERATOR_FORM = /^[A-Z][A-Z_]*:/;
/** Bounds the IN lists, whatever the URL limit allows. */
const MAX_VALUES = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

type ListField = 'type' | 'project' | 'feature' | 'environment' | 'createdBy';

export function parseEventSearch(query: EventQueryDto): EventFilter {
  const details: Array<{ path: string; message: string }> = [];
  const fail: Fail = (field, message) => {
    details.push({ path: `/query/${field}`, message });
    return undefined;
  };

  /** The values of a list filter, plain (one value) or IS / IS_ANY_OF. */
  const list = (field: ListField): string[] | undefined => {
    const raw = query[field];
    if (raw === undefined) return undefined;
    if (!OPERATOR_FORM.test(raw)) return [raw];
    const values = splitOperator(raw, LIST_OPERATORS, field, fail)?.values;
    if (values && values.length > MAX_VALUES)
      return fail(field, `${field} takes at most ${MAX_VALUES} values`);
    return values;
  };

  /** A day in operator form (`IS:YYYY-MM-DD`, UTC), or a plain date-time with a zone. */
  const day = (field: 'from' | 'to'): { day: Date } | { at: Date } | undefined => {
    const raw = query[field];
    if (raw === undefined) return undefined;
    if (!OPERATOR_FORM.test(raw)) {
      return isDateTimeWithZone(raw)
        ? { at: new Date(raw) }
        : fail(field, `${field} ${DATE_TIME_WITH_ZONE_MESSAGE}, or IS:YYYY-MM-DD`);
    }
    const parsed = splitOperator(raw, DAY_OPERATORS, field, fail);
    if (!parsed) return undefined;
    const date = parsed.values.length === 1 ? parseDay(parsed.values[0]) : undefined;
    return date ? { day: date } : fail(field, `${field} takes one date, IS:YYYY-MM-DD`);
  };

  const filter: EventFilter = {
    types: list('type'),
    projects: list('project'),
    features: list('feature'),
    environments: list('environment'),
  };

  // Plain: the creator's recorded name. Operator form: user ids, as Unleash's UI sends them.
  if (query.createdBy !== undefined && OPERATOR_FORM.test(query.createdBy)) {
    const ids = list('createdBy');
    if (ids?.some((id) => !/^\d{1,9}$/.test(id))) fail('createdBy', 'createdBy takes user ids');
    else if (ids) filter.createdByUserIds = ids.map(Number);
  } else if (query.createdBy !== undefined) {
    filter.createdByNames = [query.createdBy];
  }

  const from = day('from');
  if (from) filter.from = 'day' in from ? from.day : from.at;
  const to = day('to');
  // A day means through its end: before the next midnight.
  if (to) {
    if ('day' in to) filter.before = new Date(to.day.getTime() + DAY_MS);
    else filter.to = to.at;
  }
  if (details.length > 0) throw ValidationError.listing(details, 'Invalid event search');
  return filter;
}
