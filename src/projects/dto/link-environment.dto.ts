import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsResourceName } from '../../common/validators';

@ApiSchema({ name: 'projectEnvironmentSchema' })
export class LinkEnvironmentDto {
  @ApiProperty({ description: 'Name of the environment to link to the project' })
  @IsResourceName()
  environment: string;
}
