import { ApiSchema, PickType } from '@nestjs/swagger';
import { CreateSegmentDto } from './create-segment.dto';

/** The create form's name check: the name with exactly the rule of create (Unleash's nameSchema). */
@ApiSchema({ name: 'validateSegmentNameSchema' })
export class ValidateSegmentDto extends PickType(CreateSegmentDto, ['name'] as const) {}
