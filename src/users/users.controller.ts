import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
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
@ApiErrors(401, 403)
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
  @ApiErrors(...BODY_ERRORS, 409)
  create(@Body() dto: CreateUserDto): Promise<UserDto> {
    return this.users.create(dto);
  }

  @Get(':id')
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: 'Get a user', operationId: 'getUser' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(404)
  get(@Param('id', ParseIdPipe) id: number): Promise<UserDto> {
    return this.users.get(id);
  }

  @Put(':id')
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: 'Update a user', operationId: 'updateUser' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(...BODY_ERRORS, 404, 409)
  update(@Param('id', ParseIdPipe) id: number, @Body() dto: UpdateUserDto): Promise<UserDto> {
    return this.users.update(id, dto);
  }

  @Post(':id/change-password')
  @HttpCode(204)
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: "Set a user's password", operationId: 'changeUserPassword' })
  @ApiNoContentResponse({ description: 'The password is set' })
  @ApiErrors(...BODY_ERRORS, 404)
  async changePassword(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: ChangePasswordDto,
  ): Promise<void> {
    await this.users.changePassword(id, dto.password);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('ADMIN')
  @ApiOperation({ summary: 'Delete a user and end their sessions', operationId: 'deleteUser' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  async remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    await this.users.remove(id);
  }
}
