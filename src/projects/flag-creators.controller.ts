import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FlagCreatorDto } from './dto/flag-creator.dto';
import { ProjectsService } from './projects.service';
import { ApiErrors } from '../common/api-errors.decorator';

/**
 * The people who created the project's flags, for the feature list's "created by" filter. There
 * are no people yet (tokens create features, and a feature records no creator), so the true answer
 * is an empty list; the users issue fills it.
 */
@ApiTags('Projects')
@ApiErrors(401, 403)
@Controller('api/admin/projects/:id/flag-creators')
export class FlagCreatorsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  @ApiOperation({
    summary: "List the creators of a project's flags",
    operationId: 'getFlagCreators',
  })
  @ApiOkResponse({ type: [FlagCreatorDto] })
  @ApiErrors(404)
  async list(@Param('id') id: string): Promise<FlagCreatorDto[]> {
    await this.projects.assertExists(id);
    return [];
  }
}
