import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateTagTypeDto, UpdateTagTypeDto } from './dto/create-tag-type.dto';
import { TagTypeDto, TagTypeListDto, TagTypeWithVersionDto } from './dto/tag-type.dto';
import { TagTypesService } from './tag-types.service';

@ApiTags('Tags')
@Controller('api/admin/tag-types')
export class TagTypesController {
  constructor(private readonly tagTypes: TagTypesService) {}

  @Get()
  @ApiOkResponse({ type: TagTypeListDto })
  list(): Promise<TagTypeListDto> {
    return this.tagTypes.list();
  }

  /** Wrapped as Unleash answers it; its admin UI reads `tagType` from the answer. */
  @Get(':name')
  @ApiOkResponse({ type: TagTypeWithVersionDto })
  async get(@Param('name') name: string): Promise<TagTypeWithVersionDto> {
    return { version: 1, tagType: await this.tagTypes.get(name) };
  }

  @Post()
  @ApiCreatedResponse({ type: TagTypeDto })
  @RequirePermission('CREATE_TAG_TYPE')
  create(@Body() dto: CreateTagTypeDto): Promise<TagTypeDto> {
    return this.tagTypes.create(dto);
  }

  @Put(':name')
  @ApiOkResponse({ type: TagTypeDto })
  @RequirePermission('UPDATE_TAG_TYPE')
  update(@Param('name') name: string, @Body() dto: UpdateTagTypeDto): Promise<TagTypeDto> {
    return this.tagTypes.update(name, dto);
  }

  @Delete(':name')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('DELETE_TAG_TYPE')
  remove(@Param('name') name: string): Promise<void> {
    return this.tagTypes.remove(name);
  }
}
