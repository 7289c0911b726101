import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ParseIdPipe } from '../common/parse-id.pipe';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { RequirePermission } from './auth.decorators';
import { CreateRoleDto, UpdateRoleDto } from './dto/create-role.dto';
import { RoleDto, RoleListDto } from './dto/role.dto';
import { RolesService } from './roles.service';

@ApiTags('Roles')
@ApiErrors(401, 403)
@Controller('api/admin/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @ApiOkResponse({ type: RoleListDto })
  @ApiOperation({ summary: 'List roles', operationId: 'listRoles' })
  list(): Promise<RoleListDto> {
    return this.roles.list();
  }

  @Get(':id')
  @ApiOkResponse({ type: RoleDto })
  @ApiOperation({ summary: 'Get a role', operationId: 'getRole' })
  @ApiErrors(400, 404)
  get(@Param('id', ParseIdPipe) id: number): Promise<RoleDto> {
    return this.roles.get(id);
  }

  @Post()
  @ApiCreatedResponse({ type: RoleDto })
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: 'Create a role', operationId: 'createRole' })
  @ApiErrors(...BODY_ERRORS, 409)
  create(@Body() dto: CreateRoleDto): Promise<RoleDto> {
    return this.roles.create(dto);
  }

  @Put(':id')
  @ApiOkResponse({ type: RoleDto })
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: 'Update a role', operationId: 'updateRole' })
  @ApiErrors(...BODY_ERRORS, 404, 409)
  update(@Param('id', ParseIdPipe) id: number, @Body() dto: UpdateRoleDto): Promise<RoleDto> {
    return this.roles.update(id, dto);
  }

  @Delete(':id')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: 'Delete a role', operationId: 'deleteRole' })
  @ApiErrors(400, 404, 409)
  remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.roles.remove(id);
  }
}
