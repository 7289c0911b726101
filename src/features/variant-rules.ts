import type { ErrorDetail } from '../common/errors';
import type { Payload, StrategyVariant, Variant, VariantOverride } from './variant';

export const TOTAL_WEIGHT = 1000;

/** Stickiness values that name no context field. */
export const BUILT_IN_STICKINESS = ['default', 'random'];

/** A context field that a variant names, to be checked against the stored fields. */
export interface ContextReference {
  name: string;
  path: string;
  /** Stickiness may also be `default` or `random`. */
  stickiness: boolean;
}

interface WeightedInput {
  weight: number;
  weightType?: 'variable' | 'fix';
}

/**
 * Fix weights are kept; variable weights share what the fix ones leave of 1000, so that all
 * weights total exactly 1000. The remainder of the division goes one point each to the first
 * variable variants, in list order, so the result is the same for the same input.
 */
export function spreadWeights(
  inputs: WeightedInput[],
  path: string,
): {
  weights: number[];
  details: ErrorDetail[];
} {
  if (inputs.length === 0) return { weights: [], details: [] };
  const isFix = (input: WeightedInput) => input.weightType === 'fix';
  const fixTotal = inputs.filter(isFix).reduce((sum, input) => sum + input.weight, 0);
  const variableCount = inputs.filter((input) => !isFix(input)).length;
  if (fixTotal > TOTAL_WEIGHT) {
    return {
      weights: [],
      details: [{ path, message: `The fix weights total ${fixTotal}, more than ${TOTAL_WEIGHT}` }],
    };
  }
  if (variableCount === 0 && fixTotal !== TOTAL_WEIGHT) {
    return {
      weights: [],
      details: [
        {
          path,
          message: `With only fix variants the weights must total ${TOTAL_WEIGHT}; they total ${fixTotal}`,
        },
      ],
    };
  }
  const share = Math.floor((TOTAL_WEIGHT - fixTotal) / Math.max(variableCount, 1));
  let remainder = (TOTAL_WEIGHT - fixTotal) % Math.max(variableCount, 1);
  const weights = inputs.map((input) => {
    if (isFix(input)) return input.weight;
    const extra = remainder > 0 ? 1 : 0;
    remainder -= extra;
    return share + extra;
  });
  return { weights, details: [] };
}

export function checkPayload(payload: Payload | undefined, path: string): ErrorDetail[] {
  if (!payload) return [];
  if (payload.type === 'json') {
    try {
      JSON.parse(payload.value);
    } catch {
      return [{ path: `${path}/value`, message: 'A json payload must be valid JSON' }];
    }
  }
  if (
    payload.type === 'number' &&
    (payload.value.trim() === '' || !Number.isFinite(Number(payload.value)))
  ) {
    return [{ path: `${path}/value`, message: 'A number payload must be a number' }];
  }
  return [];
}

function duplicateNames(inputs: Array<{ name: string }>, prefix: string): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  inputs.forEach((input, index) => {
    if (seen.has(input.name)) {
      details.push({
        path: `${prefix}/${index}/name`,
        message: `Variant names must be unique; ${input.name} appears more than once`,
      });
    }
    seen.add(input.name);
  });
  return details;
}

interface VariantInput extends WeightedInput {
  name: string;
  stickiness?: string;
  payload?: Payload;
  overrides?: VariantOverride[];
}

/**
 * Feature-environment variants (and, with `strategy: true`, strategy variants) checked and put
 * in their stored form: defaults filled in, weights spread. Context fields named by stickiness
 * and overrides come back as references for the caller to check in one query.
 */
export function normaliseVariants(
  inputs: VariantInput[],
  prefix: string,
): { variants: Variant[]; details: ErrorDetail[]; references: ContextReference[] } {
  const details = duplicateNames(inputs, prefix);
  const references: ContextReference[] = [];
  inputs.forEach((input, index) => {
    const at = `${prefix}/${index}`;
    details.push(...checkPayload(input.payload, `${at}/payload`));
    if (input.stickiness !== undefined) {
      references.push({ name: input.stickiness, path: `${at}/stickiness`, stickiness: true });
    }
    input.overrides?.forEach((override, overrideIndex) =>
      references.push({
        name: override.contextName,
        path: `${at}/overrides/${overrideIndex}/contextName`,
        stickiness: false,
      }),
    );
  });
  const spread = spreadWeights(inputs, prefix);
  details.push(...spread.details);
  if (details.length > 0) return { variants: [], details, references };
  const variants = inputs.map((input, index): Variant => {
    const variant: Variant = {
      name: input.name,
      weight: spread.weights[index],
      weightType: input.weightType ?? 'variable',
      stickiness: input.stickiness ?? 'default',
    };
    if (input.payload) variant.payload = { type: input.payload.type, value: input.payload.value };
    if (input.overrides?.length) {
      variant.overrides = input.overrides.map((o) => ({
        contextName: o.contextName,
        values: [...o.values],
      }));
    }
    return variant;
  });
  return { variants, details, references };
}

/** Strategy variants: the same rules, without overrides. */
export function normaliseStrategyVariants(
  inputs: Array<VariantInput & { stickiness: string; weightType: 'variable' | 'fix' }>,
  prefix: string,
): { variants: StrategyVariant[]; details: ErrorDetail[]; references: ContextReference[] } {
  const result = normaliseVariants(inputs, prefix);
  return {
    ...result,
    variants: result.variants.map(({ name, weight, weightType, stickiness, payload }) => ({
      name,
      weight,
      weightType,
      stickiness,
      ...(payload ? { payload } : {}),
    })),
  };
}

/** One detail per reference to a context field that does not exist. */
export function unknownContextFields(
  references: ContextReference[],
  known: ReadonlySet<string>,
): ErrorDetail[] {
  return references
    .filter(
      (ref) => !known.has(ref.name) && !(ref.stickiness && BUILT_IN_STICKINESS.includes(ref.name)),
    )
    .map((ref) => ({
      path: ref.path,
      message: ref.stickiness
        ? `Unknown context field ${ref.name}; stickiness must be default, random or a context field`
        : `Unknown context field ${ref.name}`,
    }));
}

/** The names among the references that need a lookup (not the built-in stickiness values). */
export function referencedNames(references: ContextReference[]): string[] {
  return references
    .filter((ref) => !(ref.stickiness && BUILT_IN_STICKINESS.includes(ref.name)))
    .map((ref) => ref.name);
}
