import { isUniqueViolation } from './database-errors';
import { NameExistsError, ValidationError } from './errors';

/**
 * An update body may repeat the name or id that the path carries, but not change it: names are
 * immutable identifiers.
 */
export function assertSameAsPath(
  field: 'name' | 'id',
  given: unknown,
  inPath: string | number,
): void {
  if (given !== undefined && given !== inPath) {
    throw ValidationError.of(
      `/body/${field}`,
      `${field} cannot be changed; if given it must equal the ${field} in the path (${inPath})`,
    );
  }
}

/** Runs a write that creates a named thing; a taken name (even in a race) becomes a 409. */
export async function rejectDuplicateName<T>(
  kind: string,
  name: string,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw NameExistsError.named(kind, name);
    throw error;
  }
}
