import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateStrategyDto, StrategyDto, UpdateStrategyDto } from './dto/strategy.dto';
import { StrategiesService } from './strategies.service';

@ApiTags('Feature strategies')
@ApiErrors(401, 403)
@Controller('api/admin/projects/:projectId/features/:name/environments/:env/strategies')
export class StrategiesController {
  constructor(private readonly strategies: StrategiesService) {}

  /** A bare array, as in Unleash. */
  @Get()
  @ApiOkResponse({ type: [StrategyDto] })
  @ApiOperation({
    summary: 'List the strategies of a feature in an environment',
    operationId: 'listFeatureStrategies',
  })
  @ApiErrors(404)
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
  @ApiOperation({
    summary: 'Add a strategy to a feature in an environment',
    operationId: 'createFeatureStrategy',
  })
  @ApiErrors(...BODY_ERRORS, 404)
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
  @ApiOperation({ summary: 'Get a feature strategy', operationId: 'getFeatureStrategy' })
  @ApiErrors(404)
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
  @ApiOperation({ summary: 'Replace a feature strategy', operationId: 'updateFeatureStrategy' })
  @ApiErrors(...BODY_ERRORS, 404)
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
  @ApiOperation({ summary: 'Delete a feature strategy', operationId: 'deleteFeatureStrategy' })
  @ApiErrors(404)
  remove(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
    @Param('id') id: string,
  ): Promise<void> {
    return this.strategies.remove(projectId, name, env, id);
  }
}
