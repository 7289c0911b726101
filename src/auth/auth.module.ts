import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiToken } from './api-token.entity';
import { ApiTokensController } from './api-tokens.controller';
import { ApiTokensService } from './api-tokens.service';
import { EnvironmentsStoreModule } from '../environments/environments-store.module';
import { ProjectsModule } from '../projects/projects.module';
import { AuthGuard } from './auth.guard';
import { AuthVersionRow } from './auth-version.entity';
import { AuthStoreModule } from './auth-store.module';
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
  ],
  controllers: [ApiTokensController, RolesController],
  providers: [ApiTokensService, RolesService, AuthGuard],
  exports: [ApiTokensService, AuthGuard],
})
export class AuthModule {}
