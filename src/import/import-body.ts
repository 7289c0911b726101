import {
  isBoolean,
  isIn,
  isInt,
  isObject,
  isString,
  length,
  matches,
  max,
  maxLength,
  min,
} from 'class-validator';
import { CONSTRAINT_OPERATORS } from '../common/constraints/constraint';
import { ErrorDetail } from '../common/errors';
import { NAME_PATTERN } from '../common/validators';
import { checkObject } from '../features/body-validation';
import { FEATURE_TYPES } from '../features/dto/create-feature.dto';
import { PAYLOAD_TYPES, WEIGHT_TYPES } from '../features/variant';
import { TAG_TYPE_COLOR } from '../tags/dto/create-tag-type.dto';
import { ImportDataDto, ImportRequestDto, MAX_ITEMS } from './dto/import-request.dto';

/*
 * The import body's check, fast for large files (issue 14: class-validator took seconds over the
 * lists of a 10,000-feature export). Each item of the large lists is first checked by hand, in one
 * pass, against the rules of its DTO (the decorators of import-request.dto.ts and the DTOs it
 * extends), using class-validator's own value functions so that a length, an integer or a name
 * means the same. The DTOs stay the authority: the hand check only answers "certainly valid"; a
 * list holding any item it does not pass is validated by class-validator, so that a 400 carries
 * exactly the records (messages, /body paths, order) the DTOs give. A unit test compares the two
 * over mutated items (import-body.spec.ts). Keep both in step when a DTO changes.
 */

type Check = (value: unknown) => boolean;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** An object, not an array, whose own keys are all in `allowed`. */
function plainWith(value: unknown, allowed: ReadonlySet<string>): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key of Object.keys(value)) if (!allowed.has(key)) return false;
  return true;
}

const keys = (...names: string[]): ReadonlySet<string> => new Set(names);

/** @IsOptional(): undefined and null skip the other rules. */
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || value === null || check(value);

/** @IsOptionalNotNull(): only undefined skips them. */
const optionalNotNull =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);

/*
 * class-validator counts a length as validator's isLength does: the string's UTF-16 units less one
 * per surrogate pair and per variation selector after a character, never more than the units and
 * never 0 for a non-empty string. So a string of `least` (0 or 1) to `most` units certainly
 * passes, and only the others (rare: longer, or a two-character minimum) need the full count.
 */
const text =
  (least: number, most: number): Check =>
  (value) =>
    isString(value) &&
    ((least <= 1 && value.length >= least && value.length <= most) || length(value, least, most));
const textUpTo =
  (most: number): Check =>
  (value) =>
    isString(value) && (value.length <= most || maxLength(value, most));
const integer =
  (least: number, most: number): Check =>
  (value) =>
    isInt(value) && min(value, least) && max(value, most);
const oneOf =
  (allowed: readonly unknown[]): Check =>
  (value) =>
    isIn(value, allowed);

/** @IsResourceName(). The pattern admits only ASCII, whose length is its count of units. */
function resourceName(value: unknown): boolean {
  return (
    isString(value) &&
    matches(value, NAME_PATTERN) &&
    value.length <= 100 &&
    value !== '.' &&
    value !== '..'
  );
}

/** @IsArray() @ArrayMaxSize(most), with every item passing `each`. */
const arrayOf =
  (most: number, each: Check): Check =>
  (value) => {
    if (!Array.isArray(value) || value.length > most) return false;
    for (const entry of value) if (!each(entry)) return false;
    return true;
  };

/** An object of a DTO: only its properties, each passing its rule. */
function shape(rules: Record<string, Check>): Check {
  const allowed = keys(...Object.keys(rules));
  const entries = Object.entries(rules);
  return (value) => {
    if (!plainWith(value, allowed)) return false;
    for (const [key, rule] of entries) if (!rule(value[key])) return false;
    return true;
  };
}

const anything: Check = () => true;

/** ConstraintDto. */
const constraint = shape({
  contextName: text(1, 100),
  operator: oneOf(CONSTRAINT_OPERATORS),
  caseInsensitive: optional(isBoolean),
  inverted: optional(isBoolean),
  values: optional(arrayOf(1000, textUpTo(1000))),
  value: optional(textUpTo(1000)),
});

/** PayloadDto. */
const payload = shape({ type: oneOf(PAYLOAD_TYPES), value: textUpTo(10000) });

/** StrategyVariantInputDto. */
const strategyVariant = shape({
  name: text(1, 100),
  weight: integer(0, 1000),
  weightType: oneOf(WEIGHT_TYPES),
  stickiness: text(1, 100),
  payload: optional(payload),
});

/** OverrideDto. */
const override = shape({ contextName: text(1, 100), values: arrayOf(1000, textUpTo(1000)) });

/** VariantInputDto. */
const variant = shape({
  name: text(1, 100),
  weight: integer(0, 1000),
  weightType: optional(oneOf(WEIGHT_TYPES)),
  stickiness: optional(text(1, 100)),
  payload: optional(payload),
  overrides: optional(arrayOf(100, override)),
});

/** ImportFeatureDto. */
const feature = shape({
  name: textUpTo(1000),
  description: optional(textUpTo(10000)),
  type: optionalNotNull(oneOf(FEATURE_TYPES)),
  project: optional(isString),
  stale: optionalNotNull(isBoolean),
  impressionData: optionalNotNull(isBoolean),
  archived: optionalNotNull(isBoolean),
});

/** ImportStrategyDto: CreateStrategyDto, the old id and the feature. */
const strategy = shape({
  name: resourceName,
  title: optional(textUpTo(255)),
  disabled: optional(isBoolean),
  sortOrder: optionalNotNull(integer(INT32_MIN, INT32_MAX)),
  parameters: optional(isObject),
  constraints: optional(arrayOf(100, constraint)),
  variants: optional(arrayOf(100, strategyVariant)),
  segments: optional(arrayOf(100, (id) => isInt(id) && min(id, 1))),
  id: optional(textUpTo(100)),
  featureName: textUpTo(1000),
});

/** ImportFeatureEnvironmentDto. */
const featureEnvironment = shape({
  name: optional(isString),
  featureName: textUpTo(1000),
  environment: optional(isString),
  enabled: isBoolean,
  variants: optional(arrayOf(100, variant)),
});

/** LegalValueDto. */
const legalValue = shape({ value: text(1, 100), description: optional(textUpTo(1000)) });

/** ImportContextFieldDto: CreateContextFieldDto and Unleash's `project`. */
const contextField = shape({
  name: resourceName,
  description: optional(textUpTo(10000)),
  stickiness: optionalNotNull(isBoolean),
  sortOrder: optionalNotNull(integer(INT32_MIN, INT32_MAX)),
  legalValues: optional(arrayOf(1000, legalValue)),
  project: anything,
});

/** ImportSegmentDto. */
const segment = shape({ id: (id) => isInt(id) && min(id, 0), name: text(1, 100) });

/** ImportFeatureTagDto. */
const featureTag = shape({
  featureName: textUpTo(1000),
  tagType: resourceName,
  tagValue: text(2, 50),
  createdByUserId: optional(isInt),
});

/** ImportTagTypeDto: CreateTagTypeDto, with Unleash's `color`. */
const tagType = shape({
  name: resourceName,
  description: optional(textUpTo(10000)),
  icon: optional(textUpTo(255)),
  color: optional(
    (value) => isString(value) && textUpTo(100)(value) && matches(value, TAG_TYPE_COLOR),
  ),
});

/** CreateDependencyDto. */
const parent = shape({
  feature: resourceName,
  enabled: optional(isBoolean),
  variants: optional(arrayOf(100, text(1, 100))),
});

/** ImportDependencyDto. */
const dependency = shape({ feature: textUpTo(1000), dependencies: arrayOf(100, parent) });

/**
 * Each list of ImportDataDto, its item check, and an item that certainly passes its DTO: it
 * stands in for the items the hand check passed when class-validator must see the list (the
 * list keeps its length and every other item keeps its index, so the paths stay right).
 */
const LISTS: Record<keyof ImportDataDto, { check: Check; stand: () => object }> = {
  features: { check: feature, stand: () => ({ name: 'f' }) },
  featureStrategies: { check: strategy, stand: () => ({ name: 's', featureName: 'f' }) },
  tagTypes: { check: tagType, stand: () => ({ name: 't' }) },
  featureEnvironments: {
    check: featureEnvironment,
    stand: () => ({ featureName: 'f', enabled: true }),
  },
  contextFields: { check: contextField, stand: () => ({ name: 'c' }) },
  segments: { check: segment, stand: () => ({ id: 0, name: 's' }) },
  featureTags: {
    check: featureTag,
    stand: () => ({ featureName: 'f', tagType: 't', tagValue: 'tv' }),
  },
  dependencies: { check: dependency, stand: () => ({ feature: 'f', dependencies: [] }) },
};

/** The hand checks, for the unit test that holds them to the DTOs. */
export const ITEM_CHECKS: Readonly<Record<keyof ImportDataDto, Check>> = Object.fromEntries(
  Object.entries(LISTS).map(([name, { check }]) => [name, check]),
) as Record<keyof ImportDataDto, Check>;

/**
 * Checks the import body (`data` already holding only the known collections): the value to use,
 * or every problem with its /body path, exactly as checkObject(ImportRequestDto, …) finds them.
 * class-validator sees the body with each list replaced: by an empty list when the hand check
 * passed all its items, else by the list with the passed items swapped for stand-ins. A list
 * that is not an array, or is longer than the DTO allows, is left for class-validator whole.
 */
export async function checkImportBody(
  body: unknown,
): Promise<{ value: ImportRequestDto; details: ErrorDetail[] }> {
  const data = isObject(body) ? (body as { data?: unknown }).data : undefined;
  if (!isObject(data) || Array.isArray(data)) return checkObject(ImportRequestDto, body, '/body');
  const lists = data as Record<string, unknown>;
  const skeleton: Record<string, unknown> = { ...lists };
  for (const [name, { check, stand }] of Object.entries(LISTS)) {
    const list = lists[name];
    if (!Array.isArray(list) || list.length > MAX_ITEMS) continue;
    let replaced: unknown[] | undefined;
    for (let index = 0; index < list.length; index++) {
      if (check(list[index])) continue;
      replaced ??= list.map(() => stand());
      replaced[index] = list[index];
    }
    skeleton[name] = replaced ?? [];
  }
  const { details } = await checkObject(
    ImportRequestDto,
    { ...(body as object), data: skeleton },
    '/body',
  );
  return { value: body as ImportRequestDto, details };
}
