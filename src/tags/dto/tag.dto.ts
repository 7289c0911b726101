import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** A tag: its type and value (on a feature, the seed's Feature.tags items). */
@ApiSchema({ name: 'tagSchema' })
export class TagDto {
  @ApiProperty() type: string;
  @ApiProperty({ minLength: 2, maxLength: 50 }) value: string;
}

@ApiSchema({ name: 'tagsSchema' })
export class TagListDto {
  @ApiProperty({ example: 1 }) version: 1;
  @ApiProperty({ type: [TagDto] }) tags: TagDto[];
}

@ApiSchema({ name: 'tagWithVersionSchema' })
export class TagWithVersionDto {
  @ApiProperty({ example: 1 }) version: 1;
  @ApiProperty({ type: TagDto }) tag: TagDto;
}
