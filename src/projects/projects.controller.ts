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
import { CreateProjectDto, UpdateProjectDto } from './dto/create-project.dto';
import { LinkEnvironmentDto } from './dto/link-environment.dto';
import { ProjectDto, ProjectListDto } from './dto/project.dto';
import { ProjectsService } from './projects.service';

@ApiTags('Projects')
@ApiErrors(401, 403)
@Controller('api/admin/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  @ApiOkResponse({ type: ProjectListDto })
  @ApiOperation({ summary: 'List projects', operationId: 'listProjects' })
  list(): Promise<ProjectListDto> {
    return this.projects.list();
  }

  @Get(':id')
  @ApiOkResponse({ type: ProjectDto })
  @ApiOperation({ summary: 'Get a project', operationId: 'getProject' })
  @ApiErrors(404)
  get(@Param('id') id: string): Promise<ProjectDto> {
    return this.projects.get(id);
  }

  @Post()
  @ApiCreatedResponse({ type: ProjectDto })
  @RequirePermission('CREATE_PROJECT')
  @ApiOperation({ summary: 'Create a project', operationId: 'createProject' })
  @ApiErrors(...BODY_ERRORS, 409)
  create(@Body() dto: CreateProjectDto): Promise<ProjectDto> {
    return this.projects.create(dto);
  }

  @Put(':id')
  @ApiOkResponse({ type: ProjectDto })
  @RequirePermission('UPDATE_PROJECT')
  @ApiOperation({ summary: 'Update a project', operationId: 'updateProject' })
  @ApiErrors(...BODY_ERRORS, 404)
  update(@Param('id') id: string, @Body() dto: UpdateProjectDto): Promise<ProjectDto> {
    return this.projects.update(id, dto);
  }

  @Delete(':id')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('DELETE_PROJECT')
  @ApiOperation({ summary: 'Delete a project', operationId: 'deleteProject' })
  @ApiErrors([400, 'The default project cannot be deleted'], 404, 409)
  remove(@Param('id') id: string): Promise<void> {
    return this.projects.remove(id);
  }

  @Post(':id/environments')
  @ApiCreatedResponse({ type: ProjectDto })
  @RequirePermission('UPDATE_PROJECT')
  @ApiOperation({
    summary: 'Link an environment to a project',
    operationId: 'linkProjectEnvironment',
  })
  @ApiErrors(...BODY_ERRORS, 404, 409)
  linkEnvironment(@Param('id') id: string, @Body() dto: LinkEnvironmentDto): Promise<ProjectDto> {
    return this.projects.linkEnvironment(id, dto.environment);
  }

  @Delete(':id/environments/:env')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('UPDATE_PROJECT')
  @ApiOperation({
    summary: 'Unlink an environment from a project',
    operationId: 'unlinkProjectEnvironment',
  })
  @ApiErrors(400, 404)
  unlinkEnvironment(@Param('id') id: string, @Param('env') env: string): Promise<void> {
    return this.projects.unlinkEnvironment(id, env);
  }
}
