import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateDependencyDto } from './dto/create-dependency.dto';
import { DependencyDto } from './dto/feature.dto';
import { DependenciesService } from './dependencies.service';

@ApiTags('Feature dependencies')
@Controller('api/admin/projects/:projectId/features/:child/dependencies')
export class DependenciesController {
  constructor(private readonly dependencies: DependenciesService) {}

  @Get()
  @ApiOkResponse({ type: [DependencyDto] })
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
  removeAll(@Param('projectId') projectId: string, @Param('child') child: string): Promise<void> {
    return this.dependencies.removeAll(projectId, child);
  }
}
