import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import type { FastifyReply } from 'fastify';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateFeatureTagDto } from './dto/create-feature-tag.dto';
import { UpdateFeatureTagsDto } from './dto/update-feature-tags.dto';
import { TagDto, TagListDto } from './dto/feature.dto';
import { FeatureTagsService } from './feature-tags.service';

@ApiTags('Feature tags')
@ApiErrors(401, 403)
@Controller('api/admin/features/:name/tags')
export class FeatureTagsController {
  constructor(private readonly tags: FeatureTagsService) {}

  @Get()
  @ApiOkResponse({ type: TagListDto })
  @ApiOperation({ summary: "List a feature's tags", operationId: 'listFeatureTags' })
  @ApiErrors(404)
  list(@Param('name') name: string): Promise<TagListDto> {
    return this.tags.list(name);
  }

  @Post()
  @RequirePermission('UPDATE_FEATURE')
  @ApiCreatedResponse({ type: TagDto, description: 'The tag was added' })
  @ApiOkResponse({ type: TagDto, description: 'The feature already had the tag' })
  @ApiOperation({ summary: 'Tag a feature', operationId: 'addFeatureTag' })
  @ApiErrors(...BODY_ERRORS, 404)
  async add(
    @Param('name') name: string,
    @Body() dto: CreateFeatureTagDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { created, tag } = await this.tags.add(name, dto);
    await reply.status(created ? 201 : 200).send(tag);
  }

  @Put()
  @ApiOperation({
    summary: "Add and remove a feature's tags in one transaction",
    operationId: 'updateTags',
  })
  @ApiOkResponse({ type: TagListDto, description: "The feature's tags afterwards" })
  @RequirePermission('UPDATE_FEATURE')
  @ApiErrors(404, ...BODY_ERRORS)
  update(@Param('name') name: string, @Body() dto: UpdateFeatureTagsDto): Promise<TagListDto> {
    return this.tags.update(name, dto);
  }

  @Delete(':type/:value')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed' })
  @RequirePermission('UPDATE_FEATURE')
  @ApiOperation({ summary: 'Remove a tag from a feature', operationId: 'deleteFeatureTag' })
  @ApiErrors(404)
  remove(
    @Param('name') name: string,
    @Param('type') type: string,
    @Param('value') value: string,
  ): Promise<void> {
    return this.tags.remove(name, type, value);
  }
}
