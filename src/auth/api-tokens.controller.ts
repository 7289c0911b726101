import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiTokensService } from './api-tokens.service';
import { CurrentPrincipal, RequirePermission } from './auth.decorators';
import { ApiTokenCreatedDto, ApiTokenListDto } from './dto/api-token.dto';
import { CreateApiTokenDto } from './dto/create-api-token.dto';
import type { Principal } from './permissions';

@ApiTags('API tokens')
@Controller('api/admin/api-tokens')
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Get()
  @ApiOkResponse({ type: ApiTokenListDto })
  list(): Promise<ApiTokenListDto> {
    return this.tokens.list();
  }

  @Post()
  @ApiCreatedResponse({ type: ApiTokenCreatedDto })
  @RequirePermission('CREATE_API_TOKEN')
  create(
    @Body() dto: CreateApiTokenDto,
    @CurrentPrincipal() caller: Principal,
  ): Promise<ApiTokenCreatedDto> {
    return this.tokens.create(dto, caller);
  }

  @Delete(':id')
  @ApiParam({ name: 'id', description: 'The token id, or the `secret` field of its listing' })
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('DELETE_API_TOKEN')
  remove(@Param('id') id: string): Promise<void> {
    return this.tokens.remove(id);
  }
}
