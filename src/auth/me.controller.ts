import { ApiErrors } from '../common/api-errors.decorator';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from './auth.decorators';
import { MeDto } from './dto/me.dto';
import { MeService } from './me.service';
import type { Principal } from './permissions';

@ApiTags('Users')
@ApiErrors(401, 403)
@Controller('api/admin/user')
export class MeController {
  constructor(private readonly me: MeService) {}

  @Get()
  @ApiOperation({ summary: 'Who is calling, with the permissions it holds', operationId: 'getMe' })
  @ApiOkResponse({ type: MeDto })
  get(@CurrentPrincipal() principal: Principal): MeDto {
    return this.me.describe(principal);
  }
}
