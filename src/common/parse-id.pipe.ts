import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ValidationError } from './errors';

/**
 * Numeric ids in paths: a positive integer in plain decimal, else a 400 naming the parameter.
 * Hex, exponents, signs, fractions and leading zeros are refused (rules.md §2): an id has one
 * spelling, so `0x1c2` can never mean role 450.
 */
@Injectable()
export class ParseIdPipe implements PipeTransform<string | number, number> {
  transform(value: string | number, metadata: ArgumentMetadata): number {
    const id = /^[1-9]\d{0,14}$/.test(String(value)) ? Number(value) : NaN;
    if (!Number.isSafeInteger(id) || id < 1) {
      const name = metadata.data ?? 'id';
      throw ValidationError.of(`/param/${name}`, `${name} must be a positive integer`);
    }
    return id;
  }
}
