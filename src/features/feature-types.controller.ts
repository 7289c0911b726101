import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FeatureTypeDto, FeatureTypeListDto } from './dto/feature-type.dto';
import type { FeatureType } from './feature.entity';
import { ApiErrors } from '../common/api-errors.decorator';

/**
 * The feature types are fixed (rules.md §7); the expected lifetimes are Unleash's defaults, which
 * Flagkeeper only reports (it flags nothing as potentially stale).
 */
const FEATURE_TYPE_RECORDS: Array<FeatureTypeDto & { id: FeatureType }> = [
  {
    id: 'release',
    name: 'Release',
    description: 'Ships unfinished work safely; removed once the release is complete',
    lifetimeDays: 40,
  },
  {
    id: 'experiment',
    name: 'Experiment',
    description: 'Compares variants (A/B or multivariate tests)',
    lifetimeDays: 40,
  },
  {
    id: 'operational',
    name: 'Operational',
    description: 'Guards a technical change during its roll-out',
    lifetimeDays: 7,
  },
  {
    id: 'kill-switch',
    name: 'Kill switch',
    description: 'Turns off a part of the system when it misbehaves; kept for good',
    lifetimeDays: null,
  },
  {
    id: 'permission',
    name: 'Permission',
    description: 'Grants some users a feature or a product level; kept for good',
    lifetimeDays: null,
  },
];

@ApiTags('Features')
@ApiErrors(401, 403)
@Controller('api/admin/feature-types')
export class FeatureTypesController {
  @Get()
  @ApiOperation({ summary: 'The feature types', operationId: 'getAllFeatureTypes' })
  @ApiOkResponse({ type: FeatureTypeListDto })
  list(): FeatureTypeListDto {
    return { version: 1, types: FEATURE_TYPE_RECORDS.map((type) => ({ ...type })) };
  }
}
