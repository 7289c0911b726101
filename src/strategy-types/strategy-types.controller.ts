import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { CreateStrategyTypeDto, UpdateStrategyTypeDto } from './dto/create-strategy-type.dto';
import { StrategyTypeDto, StrategyTypeListDto } from './dto/strategy-type.dto';
import { StrategyTypesService } from './strategy-types.service';

/**
 * The contract names no permission for strategy types. Defining one is feature authoring, so the
 * feature permissions guard it (held by Editor, not by Viewer); see docs/decisions-definitions.md.
 */
@ApiTags('Strategy types')
@Controller('api/admin/strategies')
export class StrategyTypesController {
  constructor(private readonly types: StrategyTypesService) {}

  @Get()
  @ApiOkResponse({ type: StrategyTypeListDto })
  list(): Promise<StrategyTypeListDto> {
    return this.types.list();
  }

  @Get(':name')
  @ApiOkResponse({ type: StrategyTypeDto })
  get(@Param('name') name: string): Promise<StrategyTypeDto> {
    return this.types.get(name);
  }

  @Post()
  @ApiCreatedResponse({ type: StrategyTypeDto })
  @RequirePermission('CREATE_FEATURE')
  create(@Body() dto: CreateStrategyTypeDto): Promise<StrategyTypeDto> {
    return this.types.create(dto);
  }

  @Put(':name')
  @ApiOkResponse({ type: StrategyTypeDto })
  @RequirePermission('UPDATE_FEATURE')
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
  remove(@Param('name') name: string): Promise<void> {
    return this.types.remove(name);
  }
}
