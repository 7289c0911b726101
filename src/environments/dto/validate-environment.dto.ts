import { ApiSchema, PickType } from '@nestjs/swagger';
import { CreateEnvironmentDto } from './create-environment.dto';

/** The create form's name check: the name with exactly the rule of create (Unleash's nameSchema). */
@ApiSchema({ name: 'validateEnvironmentNameSchema' })
export class ValidateEnvironmentDto extends PickType(CreateEnvironmentDto, ['name'] as const) {}
