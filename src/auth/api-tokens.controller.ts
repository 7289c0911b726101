import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { ApiTokensService } from './api-tokens.service';
import { CurrentPrincipal, RequirePermission } from './auth.decorators';
import { ApiTokenCreatedDto, ApiTokenListDto } from './dto/api-token.dto';
import { CreateApiTokenDto } from './dto/create-api-token.dto';
import type { Principal } from './permissions';

@ApiTags('API tokens')
@ApiErrors(401, 403)
@Controller('api/admin/api-tokens')
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Get()
  @ApiOkResponse({ type: ApiTokenListDto })
  @ApiOperation({ summary: 'List API tokens', operationId: 'listApiTokens' })
  list(): Promise<ApiTokenListDto> {
    return this.tokens.list();
  }

  @Post()
  @ApiCreatedResponse({ type: ApiTokenCreatedDto })
  @RequirePermission('CREATE_API_TOKEN')
  @ApiOperation({
    summary: 'Create an API token (its secret is shown once)',
    operationId: 'createApiToken',
  })
  @ApiErrors(...BODY_ERRORS, 404)
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
  @ApiOperation({ summary: 'Delete an API token', operationId: 'deleteApiToken' })
  @ApiErrors(400, 404)
  remove(@Param('id') id: string): Promise<void> {
    return this.tokens.remove(id);
  }
}
