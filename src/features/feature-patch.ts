import { ErrorDetail, ValidationError } from '../common/errors';
import { checkObject } from './body-validation';
import { UpdateFeatureDto } from './dto/create-feature.dto';
import { FEATURE_TYPES, FeatureType } from './feature.entity';

export interface FeatureChanges {
  type?: FeatureType;
  description?: string | null;
  impressionData?: boolean;
  stale?: boolean;
}

const FIELDS = {
  '/description': 'description',
  '/type': 'type',
  '/impressionData': 'impressionData',
  '/stale': 'stale',
} as const;
type PatchPath = keyof typeof FIELDS;
const OPS = ['replace', 'add', 'remove'];
const OP_KEYS = new Set(['op', 'path', 'value']);
const MAX_DESCRIPTION = 10000;

function checkValue(field: keyof FeatureChanges, value: unknown): string | undefined {
  switch (field) {
    case 'description':
      if (value === null) return undefined;
      if (typeof value !== 'string') return 'value must be a string or null';
      return value.length > MAX_DESCRIPTION
        ? `value must be at most ${MAX_DESCRIPTION} characters long`
        : undefined;
    case 'type':
      return (FEATURE_TYPES as readonly unknown[]).includes(value)
        ? undefined
        : `value must be one of ${FEATURE_TYPES.join(', ')}`;
    default:
      return typeof value === 'boolean' ? undefined : 'value must be a boolean value';
  }
}

/** A JSON Patch array as Unleash clients send it: replace (or add) on the four fields, remove on /description. */
function fromJsonPatch(operations: unknown[]): { changes: FeatureChanges; details: ErrorDetail[] } {
  const changes: Record<string, unknown> = {};
  const details: ErrorDetail[] = [];
  operations.forEach((operation, index) => {
    const at = `/body/${index}`;
    if (typeof operation !== 'object' || operation === null || Array.isArray(operation)) {
      details.push({ path: at, message: 'must be a JSON Patch operation {op, path, value}' });
      return;
    }
    const op = operation as Record<string, unknown>;
    for (const key of Object.keys(op)) {
      if (!OP_KEYS.has(key)) {
        details.push({ path: `${at}/${key}`, message: `${key} is not an allowed property` });
      }
    }
    const opOk = typeof op.op === 'string' && OPS.includes(op.op);
    if (!opOk) details.push({ path: `${at}/op`, message: `op must be one of ${OPS.join(', ')}` });
    const field = typeof op.path === 'string' ? FIELDS[op.path as PatchPath] : undefined;
    if (!field || !Object.hasOwn(FIELDS, op.path as string)) {
      details.push({
        path: `${at}/path`,
        message: `path must be one of ${Object.keys(FIELDS).join(', ')}`,
      });
      return;
    }
    if (!opOk) return;
    if (op.op === 'remove') {
      if (field === 'description') changes.description = null;
      else details.push({ path: `${at}/op`, message: `${op.path} cannot be removed` });
      return;
    }
    if (!('value' in op)) {
      details.push({ path: `${at}/value`, message: 'value is required' });
      return;
    }
    const problem = checkValue(field, op.value);
    if (problem) details.push({ path: `${at}/value`, message: problem });
    else changes[field] = op.value;
  });
  return { changes: changes as FeatureChanges, details };
}

/**
 * The body of PATCH .../features/:name: a JSON Patch array (as Unleash clients send) or the
 * same fields as a partial object. Returns the changes, or throws a ValidationError with a
 * detail per problem (/body/0/value, /body/stale).
 */
export async function parseFeaturePatch(body: unknown): Promise<FeatureChanges> {
  if (Array.isArray(body)) {
    const { changes, details } = fromJsonPatch(body);
    if (details.length > 0) throw ValidationError.listing(details);
    return changes;
  }
  if (typeof body !== 'object' || body === null) {
    throw ValidationError.listing([
      {
        path: '/body',
        message: 'The body must be a JSON Patch array or an object with the fields to change',
      },
    ]);
  }
  const { value, details } = await checkObject(UpdateFeatureDto, body, '/body');
  if (details.length > 0) throw ValidationError.listing(details);
  const changes: FeatureChanges = {};
  if (value.type !== undefined) changes.type = value.type;
  if (value.description !== undefined) changes.description = value.description;
  if (value.impressionData !== undefined) changes.impressionData = value.impressionData;
  if (value.stale !== undefined) changes.stale = value.stale;
  return changes;
}
