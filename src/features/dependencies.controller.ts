import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
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
import { CreateDependencyDto } from './dto/create-dependency.dto';
import { DependencyDto } from './dto/feature.dto';
import { DependenciesService } from './dependencies.service';

@ApiTags('Feature dependencies')
@ApiErrors(401, 403)
@Controller('api/admin/projects/:projectId/features/:child/dependencies')
export class DependenciesController {
  constructor(private readonly dependencies: DependenciesService) {}

  @Get()
  @ApiOkResponse({ type: [DependencyDto] })
  @ApiOperation({
    summary: "List a feature's parent dependencies",
    operationId: 'listFeatureDependencies',
  })
  @ApiErrors(404)
  list(
    @Param('projectId') projectId: string,
    @Param('child') child: string,
  ): Promise<DependencyDto[]> {
    return this.dependencies.list(projectId, child);
  }

  @Post()
  @RequirePermission('UPDATE_FEATURE')
  @ApiCreatedResponse({ type: DependencyDto, description: 'The parent was added' })
  @ApiOkResponse({ type: DependencyDto, description: 'The existing dependency was changed' })
  @ApiOperation({
    summary: 'Add or change a parent dependency',
    operationId: 'addFeatureDependency',
  })
  @ApiErrors(...BODY_ERRORS, 404)
  async add(
    @Param('projectId') projectId: string,
    @Param('child') child: string,
    @Body() dto: CreateDependencyDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { created, dependency } = await this.dependencies.add(projectId, child, dto);
    await reply.status(created ? 201 : 200).send(dependency);
  }

  @Delete(':parent')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed' })
  @RequirePermission('UPDATE_FEATURE')
  @ApiOperation({ summary: 'Remove a parent dependency', operationId: 'deleteFeatureDependency' })
  @ApiErrors(404)
  remove(
    @Param('projectId') projectId: string,
    @Param('child') child: string,
    @Param('parent') parent: string,
  ): Promise<void> {
    return this.dependencies.remove(projectId, child, parent);
  }

  @Delete()
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'All parents removed' })
  @RequirePermission('UPDATE_FEATURE')
  @ApiOperation({
    summary: 'Remove every parent dependency',
    operationId: 'deleteFeatureDependencies',
  })
  @ApiErrors(404)
  removeAll(@Param('projectId') projectId: string, @Param('child') child: string): Promise<void> {
    return this.dependencies.removeAll(projectId, child);
  }
}
