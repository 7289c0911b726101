import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** A person who created flags in a project (an item of Unleash's projectFlagCreatorsSchema). */
@ApiSchema({ name: 'projectFlagCreatorSchema' })
export class FlagCreatorDto {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty() name: string;
}
