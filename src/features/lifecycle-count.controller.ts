import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LifecycleCountDto } from './dto/feature-type.dto';
import { LifecycleStore } from './lifecycle.store';
import { ApiErrors } from '../common/api-errors.decorator';

@ApiTags('Feature lifecycle')
@ApiErrors(401, 403)
@Controller('api/admin/lifecycle')
export class LifecycleCountController {
  constructor(private readonly lifecycle: LifecycleStore) {}

  @Get('count')
  @ApiOperation({
    summary: 'How many features are in each lifecycle stage',
    operationId: 'getFeatureLifecycleCount',
  })
  @ApiOkResponse({ type: LifecycleCountDto })
  async count(): Promise<LifecycleCountDto> {
    const counts = await this.lifecycle.currentStageCounts();
    return toLifecycleCount(counts);
  }
}

export function toLifecycleCount(counts: Map<string, number>): LifecycleCountDto {
  return {
    initial: counts.get('initial') ?? 0,
    preLive: counts.get('pre-live') ?? 0,
    live: counts.get('live') ?? 0,
    completed: counts.get('completed') ?? 0,
    archived: counts.get('archived') ?? 0,
  };
}
