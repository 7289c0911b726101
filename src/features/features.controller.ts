import { Readable } from 'node:stream';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateFeatureDto, UpdateFeatureDto } from './dto/create-feature.dto';
import { FeatureDto, FeatureListDto } from './dto/feature.dto';
import { FeaturesService } from './features.service';

@ApiTags('Features')
@ApiErrors(401, 403)
@ApiExtraModels(UpdateFeatureDto)
@Controller('api/admin/projects/:projectId/features')
export class FeaturesController {
  constructor(private readonly features: FeaturesService) {}

  @Get()
  @ApiOkResponse({ type: FeatureListDto })
  @ApiOperation({ summary: 'List the features of a project', operationId: 'listFeatures' })
  @ApiErrors(404)
  async list(@Param('projectId') projectId: string): Promise<StreamableFile> {
    // The body is JSON bytes already (FeatureListModel), in pieces; it is sent as it is, not
    // parsed again, with its length (the pieces are all there).
    const pieces = await this.features.list(projectId);
    return new StreamableFile(Readable.from(pieces), {
      type: 'application/json; charset=utf-8',
      length: pieces.reduce((sum, piece) => sum + piece.length, 0),
    });
  }

  @Post()
  @RequirePermission('CREATE_FEATURE')
  @ApiCreatedResponse({ type: FeatureDto })
  @ApiOperation({ summary: 'Create a feature', operationId: 'createFeature' })
  @ApiErrors(...BODY_ERRORS, 404, 409)
  create(
    @Param('projectId') projectId: string,
    @Body() dto: CreateFeatureDto,
  ): Promise<FeatureDto> {
    return this.features.create(projectId, dto);
  }

  @Get(':name')
  @ApiOkResponse({ type: FeatureDto })
  @ApiOperation({ summary: 'Get a feature', operationId: 'getFeature' })
  @ApiErrors(404)
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
  @ApiOperation({ summary: 'Update a feature (JSON Patch or fields)', operationId: 'patchFeature' })
  @ApiErrors(...BODY_ERRORS, 404)
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
  @ApiOperation({ summary: 'Archive a feature', operationId: 'archiveFeature' })
  @ApiErrors(404)
  archive(@Param('projectId') projectId: string, @Param('name') name: string): Promise<void> {
    return this.features.archive(projectId, name);
  }
}
