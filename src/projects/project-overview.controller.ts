import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ProjectOverviewDto, ProjectStatusDto } from './dto/project-overview.dto';
import { ProjectOverviewService } from './project-overview.service';
import { ApiErrors } from '../common/api-errors.decorator';

@ApiTags('Projects')
@ApiErrors(401, 403)
@Controller('api/admin/projects/:id')
export class ProjectOverviewController {
  constructor(private readonly pages: ProjectOverviewService) {}

  @Get('overview')
  @ApiOperation({ summary: 'A project with its figures', operationId: 'getProjectOverview' })
  @ApiOkResponse({ type: ProjectOverviewDto })
  @ApiErrors(404)
  overview(@Param('id') id: string): Promise<ProjectOverviewDto> {
    return this.pages.overview(id);
  }

  @Get('status')
  @ApiOperation({ summary: 'Health and lifecycle of a project', operationId: 'getProjectStatus' })
  @ApiOkResponse({ type: ProjectStatusDto })
  @ApiErrors(404)
  status(@Param('id') id: string): Promise<ProjectStatusDto> {
    return this.pages.status(id);
  }
}
