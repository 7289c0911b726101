import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { ApiErrors } from '../common/api-errors.decorator';
import {
  BatchFeaturesDto,
  ValidateArchiveFeaturesDto,
  ValidateFeatureDto,
} from './dto/validate-feature.dto';
import { FeaturesService } from './features.service';

/** The checks the admin UI's feature forms run before they create or archive. */
@ApiTags('Features')
@ApiErrors(401, 403)
@Controller('api/admin')
export class FeatureValidationController {
  constructor(private readonly features: FeaturesService) {}

  /** 204 when fine (Unleash answers 200 with no body; see decisions-ui.md). */
  @Post('features/validate')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The name is valid and no feature has it' })
  @RequirePermission('CREATE_FEATURE')
  @ApiOperation({
    summary: 'Check a new feature name as create would',
    operationId: 'validateFeature',
  })
  @ApiErrors([400, 'Invalid body, or projectId names no project'], 413, 415, 409)
  validate(@Body() dto: ValidateFeatureDto): Promise<void> {
    return this.features.validateNew(dto.name, dto.projectId);
  }

  @Post('projects/:projectId/archive/validate')
  @HttpCode(200)
  @ApiOkResponse({ type: ValidateArchiveFeaturesDto })
  @RequirePermission('DELETE_FEATURE')
  @ApiOperation({
    summary: 'Check what archiving these features of a project would meet',
    operationId: 'validateArchiveFeatures',
  })
  @ApiErrors([400, 'Invalid body, or a listed feature is not in the project'], 404, 413, 415)
  validateArchive(
    @Param('projectId') projectId: string,
    @Body() dto: BatchFeaturesDto,
  ): Promise<ValidateArchiveFeaturesDto> {
    return this.features.validateArchive(projectId, dto.features);
  }

  /** The archive page's revive (Unleash's batch revive); 204 rather than an empty 200, as above. */
  @Post('projects/:projectId/revive')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Every listed feature is revived' })
  @RequirePermission('UPDATE_FEATURE')
  @ApiOperation({
    summary: 'Revive archived features of a project, all or none',
    operationId: 'reviveFeatures',
  })
  @ApiErrors(
    [400, 'Invalid body, or a listed feature is not an archived feature of the project'],
    404,
    413,
    415,
  )
  reviveMany(@Param('projectId') projectId: string, @Body() dto: BatchFeaturesDto): Promise<void> {
    return this.features.reviveMany(projectId, dto.features);
  }
}
