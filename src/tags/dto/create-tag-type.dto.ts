import { ApiProperty, ApiPropertyOptional, ApiSchema, PartialType } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsResourceName } from '../../common/validators';

@ApiSchema({ name: 'createTagTypeSchema' })
export class CreateTagTypeDto {
  @ApiProperty({ description: 'Name of the tag type' })
  @IsResourceName()
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(10000, { message: 'description must be at most 10000 characters long' })
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Icon name or URL' })
  @IsOptional()
  @IsString({ message: 'icon must be a string' })
  @MaxLength(255, { message: 'icon must be at most 255 characters long' })
  icon?: string | null;
}

/** `name` may be sent but must equal the name in the path. */
@ApiSchema({ name: 'updateTagTypeSchema' })
export class UpdateTagTypeDto extends PartialType(CreateTagTypeDto, {
  skipNullProperties: false,
}) {}
