import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** The seed's TagType. */
@ApiSchema({ name: 'tagTypeSchema' })
export class TagTypeDto {
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true }) icon: string | null;
}

@ApiSchema({ name: 'tagTypesSchema' })
export class TagTypeListDto {
  @ApiProperty({ example: 1 }) version: 1;
  @ApiProperty({ type: [TagTypeDto] }) tagTypes: TagTypeDto[];
}

/** Unleash's answer to the create form's check: always valid (otherwise an error record). */
@ApiSchema({ name: 'validateTagTypeSchema' })
export class ValidateTagTypeResultDto {
  @ApiProperty({ example: true }) valid: true;
  @ApiProperty({ type: TagTypeDto }) tagType: TagTypeDto;
}

@ApiSchema({ name: 'tagTypeWithVersionSchema' })
export class TagTypeWithVersionDto {
  @ApiProperty({ example: 1 }) version: 1;
  @ApiProperty({ type: TagTypeDto }) tagType: TagTypeDto;
}
