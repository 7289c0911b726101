import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { ParseIdPipe } from '../common/parse-id.pipe';
import {
  ChangePasswordDto,
  CreateUserDto,
  UpdateUserDto,
  UserDto,
  UserListDto,
} from './dto/user.dto';
import { UsersService } from './users.service';

/** User administration: people are managed by admins only. */
@ApiTags('Users')
@Controller('api/admin/user-admin')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: 'List users', operationId: 'getUsers' })
  @ApiOkResponse({ type: UserListDto })
  list(): Promise<UserListDto> {
    return this.users.list();
  }

  @Post()
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: 'Create a user', operationId: 'createUser' })
  @ApiCreatedResponse({ type: UserDto })
  create(@Body() dto: CreateUserDto): Promise<UserDto> {
    return this.users.create(dto);
  }

  @Get(':id')
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: 'Get a user', operationId: 'getUser' })
  @ApiOkResponse({ type: UserDto })
  get(@Param('id', ParseIdPipe) id: number): Promise<UserDto> {
    return this.users.get(id);
  }

  @Put(':id')
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: 'Update a user', operationId: 'updateUser' })
  @ApiOkResponse({ type: UserDto })
  update(@Param('id', ParseIdPipe) id: number, @Body() dto: UpdateUserDto): Promise<UserDto> {
    return this.users.update(id, dto);
  }

  @Post(':id/change-password')
  @HttpCode(200)
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: "Set a user's password", operationId: 'changeUserPassword' })
  @ApiOkResponse()
  async changePassword(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: ChangePasswordDto,
  ): Promise<void> {
    await this.users.changePassword(id, dto.password);
  }

  @Delete(':id')
  @HttpCode(200)
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: 'Delete a user and end their sessions', operationId: 'deleteUser' })
  @ApiNoContentResponse()
  async remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    await this.users.remove(id);
  }
}
