import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length } from 'class-validator';
import { IsResourceName } from '../../common/validators';

@ApiSchema({ name: 'createTagSchema' })
export class CreateTagDto {
  @ApiProperty({ description: 'An existing tag type' })
  @IsResourceName()
  type: string;

  @ApiProperty({
    minLength: 2,
    maxLength: 50,
    description: 'Leading and trailing spaces are dropped',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(2, 50, { message: 'value must be 2 to 50 characters long' })
  value: string;
}
