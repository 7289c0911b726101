import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
  list(): Promise<StrategyTypeListDto> {
    return this.types.list();
  }

  @Get(':name')
  get(@Param('name') name: string): Promise<StrategyTypeDto> {
    return this.types.get(name);
  }

  @Post()
  @RequirePermission('CREATE_FEATURE')
  create(@Body() dto: CreateStrategyTypeDto): Promise<StrategyTypeDto> {
    return this.types.create(dto);
  }

  @Put(':name')
  @RequirePermission('UPDATE_FEATURE')
  update(
    @Param('name') name: string,
    @Body() dto: UpdateStrategyTypeDto,
  ): Promise<StrategyTypeDto> {
    return this.types.update(name, dto);
  }

  @Delete(':name')
  @HttpCode(204)
  @RequirePermission('DELETE_FEATURE')
  remove(@Param('name') name: string): Promise<void> {
    return this.types.remove(name);
  }
}
