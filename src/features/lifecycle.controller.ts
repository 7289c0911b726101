import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { CompleteLifecycleDto, LifecycleStageDto } from './dto/lifecycle.dto';
import { LifecycleService } from './lifecycle.service';

@ApiTags('Feature lifecycle')
@Controller('api/admin/projects/:projectId/features/:name/lifecycle')
export class LifecycleController {
  constructor(private readonly lifecycle: LifecycleService) {}

  @Get()
  @ApiOkResponse({ type: [LifecycleStageDto] })
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
  complete(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Body() dto: CompleteLifecycleDto,
  ): Promise<LifecycleStageDto[]> {
    return this.lifecycle.complete(projectId, name, dto);
  }
}
