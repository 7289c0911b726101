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
import { ContextFieldsService } from './context-fields.service';
import { ContextFieldDto, ContextFieldStrategiesDto } from './dto/context-field.dto';
import { CreateContextFieldDto, UpdateContextFieldDto } from './dto/create-context-field.dto';
import { ValidateContextFieldDto } from './dto/validate-context-field.dto';

@ApiTags('Context fields')
@ApiErrors(401, 403)
@Controller('api/admin/context')
export class ContextFieldsController {
  constructor(private readonly fields: ContextFieldsService) {}

  @Get()
  @ApiOkResponse({ type: [ContextFieldDto], description: 'A bare array, as in Unleash' })
  @ApiOperation({ summary: 'List context fields', operationId: 'listContextFields' })
  list(): Promise<ContextFieldDto[]> {
    return this.fields.list();
  }

  @Get(':name')
  @ApiOkResponse({ type: ContextFieldDto })
  @ApiOperation({ summary: 'Get a context field', operationId: 'getContextField' })
  @ApiErrors(404)
  get(@Param('name') name: string): Promise<ContextFieldDto> {
    return this.fields.get(name);
  }

  @Get(':name/strategies')
  @ApiOperation({
    summary: 'List the strategies whose constraints use a context field',
    operationId: 'getStrategiesByContextField',
  })
  @ApiOkResponse({ type: ContextFieldStrategiesDto })
  @ApiErrors(404)
  strategies(@Param('name') name: string): Promise<ContextFieldStrategiesDto> {
    return this.fields.strategies(name);
  }

  @Post()
  @ApiCreatedResponse({ type: ContextFieldDto })
  @RequirePermission('CREATE_CONTEXT_FIELD')
  @ApiOperation({ summary: 'Create a context field', operationId: 'createContextField' })
  @ApiErrors(...BODY_ERRORS, 409)
  create(@Body() dto: CreateContextFieldDto): Promise<ContextFieldDto> {
    return this.fields.create(dto);
  }

  /** The create form's check: 204 when fine (Unleash answers 200 with no body; see decisions-ui.md). */
  @Post('validate')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The name is valid and free' })
  @RequirePermission('CREATE_CONTEXT_FIELD')
  @ApiOperation({
    summary: 'Check a new context field name as create would',
    operationId: 'validateContextFieldName',
  })
  @ApiErrors(...BODY_ERRORS, 409)
  validate(@Body() dto: ValidateContextFieldDto): Promise<void> {
    return this.fields.validateName(dto.name);
  }

  @Put(':name')
  @ApiOkResponse({ type: ContextFieldDto })
  @RequirePermission('UPDATE_CONTEXT_FIELD')
  @ApiOperation({ summary: 'Update a context field', operationId: 'updateContextField' })
  @ApiErrors(...BODY_ERRORS, 404)
  update(
    @Param('name') name: string,
    @Body() dto: UpdateContextFieldDto,
  ): Promise<ContextFieldDto> {
    return this.fields.update(name, dto);
  }

  @Delete(':name')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('DELETE_CONTEXT_FIELD')
  @ApiOperation({ summary: 'Delete a context field', operationId: 'deleteContextField' })
  @ApiErrors(404, 409)
  remove(@Param('name') name: string): Promise<void> {
    return this.fields.remove(name);
  }
}
