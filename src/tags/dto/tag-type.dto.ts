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

@ApiSchema({ name: 'tagTypeWithVersionSchema' })
export class TagTypeWithVersionDto {
  @ApiProperty({ example: 1 }) version: 1;
  @ApiProperty({ type: TagTypeDto }) tagType: TagTypeDto;
}
