import type { ErrorDetail } from '../common/errors';
import type { ContextReference } from './variant-rules';

const MAX_PARAMETERS = 100;
const MAX_PARAMETER_NAME = 100;
const MAX_PARAMETER_VALUE = 10000;
const PERCENTAGE = /^(0|[1-9]\d?|100)$/;

/** A key as one token of a JSON pointer (RFC 6901). */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** What the parameter rules need of a strategy type: its name and its parameters' types. */
export interface ParameterRules {
  name: string;
  parameters: Array<{ name: string; type: string }>;
}

/**
 * The parameters of a strategy as they will be stored, by the rules of the strategy routes (the
 * import applies the same ones): at most 100, names of 1 to 100 characters, string values of at
 * most 10,000 characters, percentages 0–100; flexibleRollout's missing rollout, stickiness and
 * groupId filled in as Unleash does. Problems get paths under `at` (e.g. /body/parameters); the
 * stickiness is returned as a context reference for the caller to check.
 */
export function normaliseParameters(
  input: Record<string, unknown> | null | undefined,
  type: ParameterRules | undefined,
  featureName: string,
  at: string,
): { parameters: Record<string, string>; details: ErrorDetail[]; references: ContextReference[] } {
  const details: ErrorDetail[] = [];
  const references: ContextReference[] = [];
  const parameters: Record<string, string> = {};
  const entries = Object.entries(input ?? {});
  if (entries.length > MAX_PARAMETERS) {
    details.push({ path: at, message: `A strategy may have at most ${MAX_PARAMETERS} parameters` });
  }
  for (const [key, value] of entries) {
    const path = `${at}/${pointerToken(key)}`;
    if (key.length === 0 || key.length > MAX_PARAMETER_NAME) {
      details.push({
        path,
        message: `Parameter names must be 1 to ${MAX_PARAMETER_NAME} characters long`,
      });
    } else if (typeof value !== 'string') {
      details.push({ path, message: `${key} must be a string` });
    } else if (value.length > MAX_PARAMETER_VALUE) {
      details.push({
        path,
        message: `${key} must be at most ${MAX_PARAMETER_VALUE} characters long`,
      });
    } else {
      parameters[key] = value;
    }
  }
  if (type?.name === 'flexibleRollout') {
    // As Unleash does: a gradual rollout without these values rolls out to everyone, sticky on
    // the default stickiness, grouped by the feature's name.
    parameters.rollout ||= '100';
    parameters.stickiness ||= 'default';
    parameters.groupId ||= featureName;
    references.push({ name: parameters.stickiness, path: `${at}/stickiness`, stickiness: true });
  }
  for (const definition of type?.parameters ?? []) {
    const value = parameters[definition.name];
    if (
      definition.type === 'percentage' &&
      value !== undefined &&
      value !== '' &&
      !PERCENTAGE.test(value)
    ) {
      details.push({
        path: `${at}/${definition.name}`,
        message: `${definition.name} must be a whole number from 0 to 100, as a string`,
      });
    }
  }
  return { parameters, details, references };
}
