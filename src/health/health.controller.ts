import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { Public } from '../auth/auth.decorators';
import { HealthService } from './health.service';

@ApiTags('Operations')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Check that the service and its database answer',
    operationId: 'getHealth',
    security: [],
  })
  @ApiOkResponse({
    schema: { type: 'object', properties: { health: { type: 'string', enum: ['GOOD'] } } },
  })
  @ApiErrors(503)
  check(): Promise<{ health: 'GOOD' }> {
    return this.health.check();
  }
}
