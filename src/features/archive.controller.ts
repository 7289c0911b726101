import { Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { FeatureDto } from './dto/feature.dto';
import { FeaturesService } from './features.service';

@ApiTags('Archive')
@Controller('api/admin/archive')
export class ArchiveController {
  constructor(private readonly features: FeaturesService) {}

  @Post('revive/:name')
  @HttpCode(200)
  @RequirePermission('UPDATE_FEATURE')
  @ApiOkResponse({ type: FeatureDto })
  revive(@Param('name') name: string): Promise<FeatureDto> {
    return this.features.revive(name);
  }

  @Delete(':name')
  @HttpCode(204)
  @RequirePermission('DELETE_FEATURE')
  @ApiNoContentResponse({ description: 'Deleted for good' })
  remove(@Param('name') name: string): Promise<void> {
    return this.features.deleteForGood(name);
  }
}
