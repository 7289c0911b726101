import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { RequirePermission } from '../auth/auth.decorators';
import { CompleteLifecycleDto, LifecycleStageDto } from './dto/lifecycle.dto';
import { LifecycleService } from './lifecycle.service';

@ApiTags('Feature lifecycle')
@ApiErrors(401, 403)
@Controller('api/admin/projects/:projectId/features/:name/lifecycle')
export class LifecycleController {
  constructor(private readonly lifecycle: LifecycleService) {}

  @Get()
  @ApiOkResponse({ type: [LifecycleStageDto] })
  @ApiOperation({
    summary: "List a feature's lifecycle stages",
    operationId: 'listFeatureLifecycle',
  })
  @ApiErrors(404)
  list(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
  ): Promise<LifecycleStageDto[]> {
    return this.lifecycle.list(projectId, name);
  }

  @Post('complete')
  @HttpCode(200)
  @ApiOkResponse({ type: [LifecycleStageDto] })
  @RequirePermission('UPDATE_FEATURE')
  @ApiOperation({ summary: 'Mark a feature completed', operationId: 'completeFeature' })
  @ApiErrors(...BODY_ERRORS, 404)
  complete(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Body() dto: CompleteLifecycleDto,
  ): Promise<LifecycleStageDto[]> {
    return this.lifecycle.complete(projectId, name, dto);
  }
}
