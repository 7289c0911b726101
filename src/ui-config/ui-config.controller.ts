import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { UiConfigDto } from './dto/ui-config.dto';
import { UiConfigService } from './ui-config.service';
import { ApiErrors } from '../common/api-errors.decorator';

@ApiTags('Admin UI')
@ApiErrors(401, 403)
@Controller('api/admin/ui-config')
export class UiConfigController {
  constructor(private readonly uiConfig: UiConfigService) {}

  @Get()
  @ApiOperation({ summary: 'Configuration read by admin frontends', operationId: 'getUiConfig' })
  @ApiOkResponse({ type: UiConfigDto })
  get(@Req() request: FastifyRequest): UiConfigDto {
    return this.uiConfig.config(`${request.protocol}://${request.host}`);
  }
}
