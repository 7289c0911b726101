import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateTagTypeDto, UpdateTagTypeDto } from './dto/create-tag-type.dto';
import {
  TagTypeDto,
  TagTypeListDto,
  TagTypeWithVersionDto,
  ValidateTagTypeResultDto,
} from './dto/tag-type.dto';
import { TagTypesService } from './tag-types.service';

@ApiTags('Tags')
@ApiErrors(401, 403)
@Controller('api/admin/tag-types')
export class TagTypesController {
  constructor(private readonly tagTypes: TagTypesService) {}

  @Get()
  @ApiOkResponse({ type: TagTypeListDto })
  @ApiOperation({ summary: 'List tag types', operationId: 'listTagTypes' })
  list(): Promise<TagTypeListDto> {
    return this.tagTypes.list();
  }

  /** Wrapped as Unleash answers it; its admin UI reads `tagType` from the answer. */
  @Get(':name')
  @ApiOkResponse({ type: TagTypeWithVersionDto })
  @ApiOperation({ summary: 'Get a tag type', operationId: 'getTagType' })
  @ApiErrors(404)
  async get(@Param('name') name: string): Promise<TagTypeWithVersionDto> {
    return { version: 1, tagType: await this.tagTypes.get(name) };
  }

  @Post()
  @ApiCreatedResponse({ type: TagTypeDto })
  @RequirePermission('CREATE_TAG_TYPE')
  @ApiOperation({ summary: 'Create a tag type', operationId: 'createTagType' })
  @ApiErrors(...BODY_ERRORS, 409)
  create(@Body() dto: CreateTagTypeDto): Promise<TagTypeDto> {
    return this.tagTypes.create(dto);
  }

  /** The create form's check, on the whole create body; 200 with what create would store. */
  @Post('validate')
  @HttpCode(200)
  @ApiOkResponse({ type: ValidateTagTypeResultDto })
  @RequirePermission('CREATE_TAG_TYPE')
  @ApiOperation({ summary: 'Check a new tag type as create would', operationId: 'validateTagType' })
  @ApiErrors(...BODY_ERRORS, 409)
  async validate(@Body() dto: CreateTagTypeDto): Promise<ValidateTagTypeResultDto> {
    return { valid: true, tagType: await this.tagTypes.validate(dto) };
  }

  @Put(':name')
  @ApiOkResponse({ type: TagTypeDto })
  @RequirePermission('UPDATE_TAG_TYPE')
  @ApiOperation({ summary: 'Update a tag type', operationId: 'updateTagType' })
  @ApiErrors(...BODY_ERRORS, 404)
  update(@Param('name') name: string, @Body() dto: UpdateTagTypeDto): Promise<TagTypeDto> {
    return this.tagTypes.update(name, dto);
  }

  @Delete(':name')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('DELETE_TAG_TYPE')
  @ApiOperation({ summary: 'Delete a tag type', operationId: 'deleteTagType' })
  @ApiErrors(404, 409)
  remove(@Param('name') name: string): Promise<void> {
    return this.tagTypes.remove(name);
  }
}
