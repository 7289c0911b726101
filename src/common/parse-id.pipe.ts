import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ValidationError } from './errors';

/** Numeric ids in paths: a positive integer, else a 400 naming the parameter. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const id = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(id) || id < 1) {
      const name = metadata.data ?? 'id';
      throw ValidationError.of(`/param/${name}`, `${name} must be a positive integer`);
    }
    return id;
  }
}
