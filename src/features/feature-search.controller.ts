import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FeatureSearchQueryDto, FeatureSearchResultDto } from './dto/feature-search.dto';
import { FeatureSearchService } from './feature-search.service';
import { ApiErrors } from '../common/api-errors.decorator';

@ApiTags('Search')
@ApiErrors(401, 403)
@Controller('api/admin/search/features')
export class FeatureSearchController {
  constructor(private readonly search: FeatureSearchService) {}

  @Get()
  @ApiOperation({ summary: 'Search and filter features, one page', operationId: 'searchFeatures' })
  @ApiOkResponse({ type: FeatureSearchResultDto })
  find(@Query() query: FeatureSearchQueryDto): Promise<FeatureSearchResultDto> {
    return this.search.search(query);
  }
}
