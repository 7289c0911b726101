import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateTagDto } from './dto/create-tag.dto';
import { TagListDto, TagWithVersionDto } from './dto/tag.dto';
import { TagsService } from './tags.service';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';

@ApiTags('Tags')
@ApiErrors(401, 403)
@Controller('api/admin/tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @ApiOperation({ summary: 'List all tags', operationId: 'getTags' })
  @ApiOkResponse({ type: TagListDto })
  list(): Promise<TagListDto> {
    return this.tags.list();
  }

  @Get(':type')
  @ApiOperation({ summary: 'List the tags of a tag type', operationId: 'getTagsByType' })
  @ApiOkResponse({ type: TagListDto })
  @ApiErrors(404)
  listOfType(@Param('type') type: string): Promise<TagListDto> {
    return this.tags.listOfType(type);
  }

  /** Tags are put on features, so creating one takes the permission that tagging takes. */
  @Post()
  @ApiOperation({ summary: 'Create a tag', operationId: 'createTag' })
  @ApiCreatedResponse({ type: TagWithVersionDto })
  @RequirePermission('UPDATE_FEATURE')
  @ApiErrors(...BODY_ERRORS)
  create(@Body() dto: CreateTagDto): Promise<TagWithVersionDto> {
    return this.tags.create(dto);
  }
}
