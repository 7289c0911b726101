import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiToken } from './api-token.entity';
import { ApiTokensController } from './api-tokens.controller';
import { ApiTokensService } from './api-tokens.service';
import { EnvironmentsStoreModule } from '../environments/environments-store.module';
import { ProjectsModule } from '../projects/projects.module';
import { UsersModule } from '../users/users.module';
import { AuthGuard } from './auth.guard';
import { AuthVersionRow } from './auth-version.entity';
import { AuthStoreModule } from './auth-store.module';
import { MeController } from './me.controller';
import { MeService } from './me.service';
import { Role } from './role.entity';
import { RolePermission } from './role-permission.entity';
import { RolesController } from './roles.controller';
import { RolesService } from './roles.service';

@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([ApiToken, AuthVersionRow, Role, RolePermission]),
    AuthStoreModule,
    EnvironmentsStoreModule,
    ProjectsModule,
    UsersModule,
  ],
  controllers: [ApiTokensController, RolesController, MeController],
  providers: [ApiTokensService, RolesService, AuthGuard, MeService],
  exports: [ApiTokensService, RolesService, AuthGuard],
})
export class AuthModule {}
