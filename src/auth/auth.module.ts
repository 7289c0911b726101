import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiToken } from './api-token.entity';
import { ApiTokensController } from './api-tokens.controller';
import { ApiTokensService } from './api-tokens.service';
import { AuthGuard } from './auth.guard';
import { Role } from './role.entity';
import { RolePermission } from './role-permission.entity';
import { RolesController } from './roles.controller';
import { RolesService } from './roles.service';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ApiToken, Role, RolePermission])],
  controllers: [ApiTokensController, RolesController],
  providers: [ApiTokensService, RolesService, AuthGuard],
  exports: [ApiTokensService, AuthGuard],
})
export class AuthModule {}
