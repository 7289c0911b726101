import { ApiProperty, ApiPropertyOptional, ApiSchema, PartialType } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsResourceName } from '../../common/validators';

/** Unleash's tag type colours: a hex colour (#FFFFFF) or a theme colour reference (primary.main). */
export const TAG_TYPE_COLOR = /^(#[0-9A-Fa-f]{6}|[a-zA-Z0-9]+(\.[a-zA-Z0-9]+)*)$/;

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

  /**
   * Unleash 7.5.1's tag type colour, which its UI's tag type form always sends. The seed's
   * TagType has no colour, so it is checked as Unleash checks it and not stored
   * (docs/decisions-ui.md).
   */
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      "Accepted for Unleash's admin UI, not stored: a hex colour (#FFFFFF) or a theme colour reference (primary.main)",
    example: '#FFFFFF',
  })
  @IsOptional()
  @IsString({ message: 'color must be a string' })
  @MaxLength(100, { message: 'color must be at most 100 characters long' })
  @Matches(TAG_TYPE_COLOR, {
    message: 'color must be a hex colour (#FFFFFF) or a theme colour reference (primary.main)',
  })
  color?: string | null;
}

/** `name` may be sent but must equal the name in the path. */
@ApiSchema({ name: 'updateTagTypeSchema' })
export class UpdateTagTypeDto extends PartialType(CreateTagTypeDto, {
  skipNullProperties: false,
}) {}
