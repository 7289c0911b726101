import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DependenciesService } from './dependencies.service';
import { ApiErrors } from '../common/api-errors.decorator';

/** What Unleash's feature page asks about dependencies before one is added. */
@ApiTags('Feature dependencies')
@ApiErrors(401, 403)
@Controller('api/admin/projects/:projectId')
export class DependencyOptionsController {
  constructor(private readonly dependencies: DependenciesService) {}

  @Get('dependencies')
  @ApiOperation({
    summary: 'Whether any feature of the project depends on another',
    operationId: 'checkDependenciesExist',
  })
  @ApiOkResponse({ type: Boolean })
  @ApiErrors(404)
  exist(@Param('projectId') projectId: string): Promise<boolean> {
    return this.dependencies.anyInProject(projectId);
  }

  @Get('features/:child/parents')
  @ApiOperation({
    summary: 'List the features that may become parents of a feature',
    operationId: 'listParentOptions',
  })
  @ApiOkResponse({ type: [String] })
  @ApiErrors(404)
  parents(@Param('projectId') projectId: string, @Param('child') child: string): Promise<string[]> {
    return this.dependencies.parentOptions(projectId, child);
  }

  @Get('features/:parent/parent-variants')
  @ApiOperation({
    summary: "List the variant names of a parent's strategies and environments",
    operationId: 'listParentVariantOptions',
  })
  @ApiOkResponse({ type: [String] })
  @ApiErrors(404)
  parentVariants(
    @Param('projectId') projectId: string,
    @Param('parent') parent: string,
  ): Promise<string[]> {
    return this.dependencies.parentVariants(projectId, parent);
  }
}
