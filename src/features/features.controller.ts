import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateFeatureDto, UpdateFeatureDto } from './dto/create-feature.dto';
import { FeatureDto, FeatureListDto } from './dto/feature.dto';
import { FeaturesService } from './features.service';

@ApiTags('Features')
@ApiExtraModels(UpdateFeatureDto)
@Controller('api/admin/projects/:projectId/features')
export class FeaturesController {
  constructor(private readonly features: FeaturesService) {}

  @Get()
  @ApiOkResponse({ type: FeatureListDto })
  list(@Param('projectId') projectId: string): Promise<FeatureListDto> {
    return this.features.list(projectId);
  }

  @Post()
  @RequirePermission('CREATE_FEATURE')
  @ApiCreatedResponse({ type: FeatureDto })
  create(
    @Param('projectId') projectId: string,
    @Body() dto: CreateFeatureDto,
  ): Promise<FeatureDto> {
    return this.features.create(projectId, dto);
  }

  @Get(':name')
  @ApiOkResponse({ type: FeatureDto })
  get(@Param('projectId') projectId: string, @Param('name') name: string): Promise<FeatureDto> {
    return this.features.get(projectId, name);
  }

  @Patch(':name')
  @RequirePermission('UPDATE_FEATURE')
  @ApiOkResponse({ type: FeatureDto })
  @ApiBody({
    description:
      'A JSON Patch array (replace on /description, /type, /impressionData, /stale) or the same fields as an object',
    schema: {
      oneOf: [
        {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              op: { type: 'string', enum: ['replace', 'add', 'remove'] },
              path: {
                type: 'string',
                enum: ['/description', '/type', '/impressionData', '/stale'],
              },
              value: {},
            },
            required: ['op', 'path'],
          },
        },
        { $ref: getSchemaPath(UpdateFeatureDto) },
      ],
    },
  })
  patch(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Body() body: unknown,
  ): Promise<FeatureDto> {
    return this.features.patch(projectId, name, body);
  }

  @Delete(':name')
  @HttpCode(204)
  @RequirePermission('DELETE_FEATURE')
  @ApiNoContentResponse({ description: 'Archived' })
  archive(@Param('projectId') projectId: string, @Param('name') name: string): Promise<void> {
    return this.features.archive(projectId, name);
  }
}
