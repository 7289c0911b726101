import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateNested } from 'class-validator';
import { CreateTagDto } from '../../tags/dto/create-tag.dto';
import { IsNestedObject } from '../../common/validators';

/** Unleash's updateTagsSchema: both lists are required, either may be empty. */
@ApiSchema({ name: 'updateTagsSchema' })
export class UpdateFeatureTagsDto {
  @ApiProperty({ type: [CreateTagDto], description: 'Tags to put on the feature' })
  @IsArray({ message: 'addedTags must be an array' })
  @ArrayMaxSize(1000)
  @IsNestedObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CreateTagDto)
  addedTags: CreateTagDto[];

  @ApiProperty({ type: [CreateTagDto], description: 'Tags to take off the feature' })
  @IsArray({ message: 'removedTags must be an array' })
  @ArrayMaxSize(1000)
  @IsNestedObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CreateTagDto)
  removedTags: CreateTagDto[];
}
