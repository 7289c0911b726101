import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { FeatureEnvironmentsService } from './feature-environments.service';

@ApiTags('Feature environments')
@Controller('api/admin/projects/:projectId/features/:name/environments/:env')
export class FeatureEnvironmentsController {
  constructor(private readonly featureEnvironments: FeatureEnvironmentsService) {}

  @Post('on')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Enabled' })
  @RequirePermission('UPDATE_FEATURE_ENVIRONMENT', { param: 'env' })
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
  off(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
  ): Promise<void> {
    return this.featureEnvironments.setEnabled(projectId, name, env, false);
  }
}
