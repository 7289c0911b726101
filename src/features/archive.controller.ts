import { Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { RequirePermission } from '../auth/auth.decorators';
import { FeatureDto } from './dto/feature.dto';
import { FeaturesService } from './features.service';

@ApiTags('Archive')
@ApiErrors(401, 403)
@Controller('api/admin/archive')
export class ArchiveController {
  constructor(private readonly features: FeaturesService) {}

  @Post('revive/:name')
  @HttpCode(200)
  @RequirePermission('UPDATE_FEATURE')
  @ApiOkResponse({ type: FeatureDto })
  @ApiOperation({ summary: 'Revive an archived feature', operationId: 'reviveFeature' })
  @ApiErrors(404, 409)
  revive(@Param('name') name: string): Promise<FeatureDto> {
    return this.features.revive(name);
  }

  @Delete(':name')
  @HttpCode(204)
  @RequirePermission('DELETE_FEATURE')
  @ApiNoContentResponse({ description: 'Deleted for good' })
  @ApiOperation({
    summary: 'Delete an archived feature for good',
    operationId: 'deleteArchivedFeature',
  })
  @ApiErrors(404)
  remove(@Param('name') name: string): Promise<void> {
    return this.features.deleteForGood(name);
  }
}
