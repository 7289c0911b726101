import { ApiSchema, PartialType, PickType } from '@nestjs/swagger';
import { CreateEnvironmentDto } from './create-environment.dto';

/**
 * `type` and `sortOrder` change; `name` may be sent (Unleash clients send the whole record) but
 * must equal the name in the path; `protected` is fixed at creation.
 */
@ApiSchema({ name: 'updateEnvironmentSchema' })
export class UpdateEnvironmentDto extends PartialType(
  PickType(CreateEnvironmentDto, ['name', 'type', 'sortOrder'] as const),
  {
    skipNullProperties: false,
  },
) {}
