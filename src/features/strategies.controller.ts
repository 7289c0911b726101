import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateStrategyDto, StrategyDto, UpdateStrategyDto } from './dto/strategy.dto';
import { StrategiesService } from './strategies.service';

@ApiTags('Feature strategies')
@Controller('api/admin/projects/:projectId/features/:name/environments/:env/strategies')
export class StrategiesController {
  constructor(private readonly strategies: StrategiesService) {}

  /** A bare array, as in Unleash. */
  @Get()
  @ApiOkResponse({ type: [StrategyDto] })
  list(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
  ): Promise<StrategyDto[]> {
    return this.strategies.list(projectId, name, env);
  }

  @Post()
  @RequirePermission('CREATE_FEATURE_STRATEGY', { param: 'env' })
  @ApiCreatedResponse({ type: StrategyDto })
  create(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
    @Body() dto: CreateStrategyDto,
  ): Promise<StrategyDto> {
    return this.strategies.create(projectId, name, env, dto);
  }

  @Get(':id')
  @ApiOkResponse({ type: StrategyDto })
  get(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
    @Param('id') id: string,
  ): Promise<StrategyDto> {
    return this.strategies.get(projectId, name, env, id);
  }

  @Put(':id')
  @RequirePermission('UPDATE_FEATURE_STRATEGY', { param: 'env' })
  @ApiOkResponse({ type: StrategyDto })
  update(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
    @Param('id') id: string,
    @Body() dto: UpdateStrategyDto,
  ): Promise<StrategyDto> {
    return this.strategies.update(projectId, name, env, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('DELETE_FEATURE_STRATEGY', { param: 'env' })
  @ApiNoContentResponse({ description: 'Deleted' })
  remove(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
    @Param('id') id: string,
  ): Promise<void> {
    return this.strategies.remove(projectId, name, env, id);
  }
}
