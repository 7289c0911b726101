import { ApiSchema, PickType } from '@nestjs/swagger';
import { CreateContextFieldDto } from './create-context-field.dto';

/** The create form's name check: the name with exactly the rule of create (Unleash's nameSchema). */
@ApiSchema({ name: 'validateContextFieldNameSchema' })
export class ValidateContextFieldDto extends PickType(CreateContextFieldDto, ['name'] as const) {}
