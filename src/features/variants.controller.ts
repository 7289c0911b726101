import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { VariantInputDto, VariantListDto } from './dto/variant.dto';
import { VariantsService } from './variants.service';

@ApiTags('Feature variants')
@Controller('api/admin/projects/:projectId/features/:name/environments/:env/variants')
export class VariantsController {
  constructor(private readonly variants: VariantsService) {}

  @Get()
  @ApiOkResponse({ type: VariantListDto })
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
  replace(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Param('env') env: string,
    @Body() body: unknown,
  ): Promise<VariantListDto> {
    return this.variants.replace(projectId, name, env, body);
  }
}
