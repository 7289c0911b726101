import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { RequirePermission } from '../auth/auth.decorators';
import { FeatureEnvironmentsService } from './feature-environments.service';

@ApiTags('Feature environments')
@ApiErrors(401, 403)
@Controller('api/admin/projects/:projectId/features/:name/environments/:env')
export class FeatureEnvironmentsController {
  constructor(private readonly featureEnvironments: FeatureEnvironmentsService) {}

  @Post('on')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Enabled' })
  @RequirePermission('UPDATE_FEATURE_ENVIRONMENT', { param: 'env' })
  @ApiOperation({
    summary: 'Enable a feature in an environment',
    operationId: 'enableFeatureEnvironment',
  })
  @ApiErrors(404)
  on(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
  ): Promise<void> {
    return this.featureEnvironments.setEnabled(projectId, name, env, true);
  }

  @Post('off')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Disabled' })
  @RequirePermission('UPDATE_FEATURE_ENVIRONMENT', { param: 'env' })
  @ApiOperation({
    summary: 'Disable a feature in an environment',
    operationId: 'disableFeatureEnvironment',
  })
  @ApiErrors(404)
  off(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
  ): Promise<void> {
    return this.featureEnvironments.setEnabled(projectId, name, env, false);
  }
}
