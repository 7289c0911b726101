import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateStrategyTypeDto, UpdateStrategyTypeDto } from './dto/create-strategy-type.dto';
import { StrategyTypeDto, StrategyTypeListDto } from './dto/strategy-type.dto';
import { StrategyTypesService } from './strategy-types.service';

/**
 * The contract names no permission for strategy types. Defining one is feature authoring, so the
 * feature permissions guard it (held by Editor, not by Viewer); see docs/decisions-definitions.md.
 */
@ApiTags('Strategy types')
@ApiErrors(401, 403)
@Controller('api/admin/strategies')
export class StrategyTypesController {
  constructor(private readonly types: StrategyTypesService) {}

  @Get()
  @ApiOkResponse({ type: StrategyTypeListDto })
  @ApiOperation({ summary: 'List strategy types', operationId: 'listStrategyTypes' })
  list(): Promise<StrategyTypeListDto> {
    return this.types.list();
  }

  @Get(':name')
  @ApiOkResponse({ type: StrategyTypeDto })
  @ApiOperation({ summary: 'Get a strategy type', operationId: 'getStrategyType' })
  @ApiErrors(404)
  get(@Param('name') name: string): Promise<StrategyTypeDto> {
    return this.types.get(name);
  }

  @Post()
  @ApiCreatedResponse({ type: StrategyTypeDto })
  @RequirePermission('CREATE_FEATURE')
  @ApiOperation({ summary: 'Create a strategy type', operationId: 'createStrategyType' })
  @ApiErrors(...BODY_ERRORS, 409)
  create(@Body() dto: CreateStrategyTypeDto): Promise<StrategyTypeDto> {
    return this.types.create(dto);
  }

  @Put(':name')
  @ApiOkResponse({ type: StrategyTypeDto })
  @RequirePermission('UPDATE_FEATURE')
  @ApiOperation({ summary: 'Update a strategy type', operationId: 'updateStrategyType' })
  @ApiErrors(...BODY_ERRORS, 404)
  update(
    @Param('name') name: string,
    @Body() dto: UpdateStrategyTypeDto,
  ): Promise<StrategyTypeDto> {
    return this.types.update(name, dto);
  }

  @Delete(':name')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('DELETE_FEATURE')
  @ApiOperation({ summary: 'Delete a strategy type', operationId: 'deleteStrategyType' })
  @ApiErrors(404, 409)
  remove(@Param('name') name: string): Promise<void> {
    return this.types.remove(name);
  }
}
