import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from './auth.decorators';
import { CreateRoleDto, UpdateRoleDto } from './dto/create-role.dto';
import { RoleDto, RoleListDto } from './dto/role.dto';
import { RolesService } from './roles.service';

@ApiTags('Roles')
@Controller('api/admin/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @ApiOkResponse({ type: RoleListDto })
  list(): Promise<RoleListDto> {
    return this.roles.list();
  }

  @Get(':id')
  @ApiOkResponse({ type: RoleDto })
  get(@Param('id', ParseIdPipe) id: number): Promise<RoleDto> {
    return this.roles.get(id);
  }

  @Post()
  @ApiCreatedResponse({ type: RoleDto })
  @RequirePermission('ADMIN')
  create(@Body() dto: CreateRoleDto): Promise<RoleDto> {
    return this.roles.create(dto);
  }

  @Put(':id')
  @ApiOkResponse({ type: RoleDto })
  @RequirePermission('ADMIN')
  update(@Param('id', ParseIdPipe) id: number, @Body() dto: UpdateRoleDto): Promise<RoleDto> {
    return this.roles.update(id, dto);
  }

  @Delete(':id')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('ADMIN')
  remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.roles.remove(id);
  }
}
