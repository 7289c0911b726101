import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { RequirePermission } from '../auth/auth.decorators';
import { VariantInputDto, VariantListDto } from './dto/variant.dto';
import { VariantsService } from './variants.service';

@ApiTags('Feature variants')
@ApiErrors(401, 403)
@Controller('api/admin/projects/:projectId/features/:name/environments/:env/variants')
export class VariantsController {
  constructor(private readonly variants: VariantsService) {}

  @Get()
  @ApiOkResponse({ type: VariantListDto })
  @ApiOperation({
    summary: 'List the variants of a feature in an environment',
    operationId: 'listFeatureVariants',
  })
  @ApiErrors(404)
  get(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
  ): Promise<VariantListDto> {
    return this.variants.get(projectId, name, env);
  }

  @Put()
  @RequirePermission('UPDATE_FEATURE_ENVIRONMENT_VARIANTS', { param: 'env' })
  @ApiOkResponse({ type: VariantListDto })
  @ApiBody({ type: [VariantInputDto], description: 'The whole list, as a bare array' })
  @ApiOperation({
    summary: 'Replace the variants of a feature in an environment',
    operationId: 'replaceFeatureVariants',
  })
  @ApiErrors(...BODY_ERRORS, 404)
  replace(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
    @Body() body: unknown,
  ): Promise<VariantListDto> {
    return this.variants.replace(projectId, name, env, body);
  }
}
