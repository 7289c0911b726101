import { Body, Controller, Get, Param, Patch, Put } from '@nestjs/common';
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

  @Patch()
  @RequirePermission('UPDATE_FEATURE_ENVIRONMENT_VARIANTS', { param: 'env' })
  @ApiOkResponse({ type: VariantListDto })
  @ApiBody({
    schema: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          op: { type: 'string', enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
          path: { type: 'string', description: 'A JSON pointer into the list, e.g. /0/weight' },
          from: { type: 'string', description: 'For move and copy' },
          value: {},
        },
        required: ['op', 'path'],
      },
    },
    description:
      "A JSON Patch (RFC 6902) over the stored list, as Unleash's UI saves its variants form; the patched list must meet the rules of the replace",
  })
  @ApiOperation({
    summary: 'Change the variants of a feature in an environment with a JSON Patch',
    operationId: 'patchFeatureVariants',
  })
  @ApiErrors(...BODY_ERRORS, 404)
  patch(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
    @Body() body: unknown,
  ): Promise<VariantListDto> {
    return this.variants.patch(projectId, name, env, body);
  }
}
