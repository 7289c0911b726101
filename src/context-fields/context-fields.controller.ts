import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { ContextFieldsService } from './context-fields.service';
import { ContextFieldDto } from './dto/context-field.dto';
import { CreateContextFieldDto, UpdateContextFieldDto } from './dto/create-context-field.dto';

@ApiTags('Context fields')
@Controller('api/admin/context')
export class ContextFieldsController {
  constructor(private readonly fields: ContextFieldsService) {}

  @Get()
  @ApiOkResponse({ type: [ContextFieldDto], description: 'A bare array, as in Unleash' })
  list(): Promise<ContextFieldDto[]> {
    return this.fields.list();
  }

  @Get(':name')
  get(@Param('name') name: string): Promise<ContextFieldDto> {
    return this.fields.get(name);
  }

  @Post()
  @RequirePermission('CREATE_CONTEXT_FIELD')
  create(@Body() dto: CreateContextFieldDto): Promise<ContextFieldDto> {
    return this.fields.create(dto);
  }

  @Put(':name')
  @RequirePermission('UPDATE_CONTEXT_FIELD')
  update(
    @Param('name') name: string,
    @Body() dto: UpdateContextFieldDto,
  ): Promise<ContextFieldDto> {
    return this.fields.update(name, dto);
  }

  @Delete(':name')
  @HttpCode(204)
  @RequirePermission('DELETE_CONTEXT_FIELD')
  remove(@Param('name') name: string): Promise<void> {
    return this.fields.remove(name);
  }
}
