import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateProjectDto, UpdateProjectDto } from './dto/create-project.dto';
import { LinkEnvironmentDto } from './dto/link-environment.dto';
import { ProjectDto, ProjectListDto } from './dto/project.dto';
import { ProjectsService } from './projects.service';

@ApiTags('Projects')
@Controller('api/admin/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  @ApiOkResponse({ type: ProjectListDto })
  list(): Promise<ProjectListDto> {
    return this.projects.list();
  }

  @Get(':id')
  @ApiOkResponse({ type: ProjectDto })
  get(@Param('id') id: string): Promise<ProjectDto> {
    return this.projects.get(id);
  }

  @Post()
  @ApiCreatedResponse({ type: ProjectDto })
  @RequirePermission('CREATE_PROJECT')
  create(@Body() dto: CreateProjectDto): Promise<ProjectDto> {
    return this.projects.create(dto);
  }

  @Put(':id')
  @ApiOkResponse({ type: ProjectDto })
  @RequirePermission('UPDATE_PROJECT')
  update(@Param('id') id: string, @Body() dto: UpdateProjectDto): Promise<ProjectDto> {
    return this.projects.update(id, dto);
  }

  @Delete(':id')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('DELETE_PROJECT')
  remove(@Param('id') id: string): Promise<void> {
    return this.projects.remove(id);
  }

  @Post(':id/environments')
  @ApiCreatedResponse({ type: ProjectDto })
  @RequirePermission('UPDATE_PROJECT')
  linkEnvironment(@Param('id') id: string, @Body() dto: LinkEnvironmentDto): Promise<ProjectDto> {
    return this.projects.linkEnvironment(id, dto.environment);
  }

  @Delete(':id/environments/:env')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('UPDATE_PROJECT')
  unlinkEnvironment(@Param('id') id: string, @Param('env') env: string): Promise<void> {
    return this.projects.unlinkEnvironment(id, env);
  }
}
