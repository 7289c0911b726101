import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Environment } from './environment.entity';
import { EnvironmentsController } from './environments.controller';
import { EnvironmentsService } from './environments.service';
import { EnvironmentCloneService } from './environment-clone.service';
import { AuthStoreModule } from '../auth/auth-store.module';
import { FeatureStoresModule } from '../features/feature-stores.module';
import { ProjectsModule } from '../projects/projects.module';
import { ProjectsStoreModule } from '../projects/projects-store.module';
import { EnvironmentsStoreModule } from './environments-store.module';

@Module({
  imports: [
    TypeOrmModule.forFeature([Environment]),
    EnvironmentsStoreModule,
    ProjectsModule,
    ProjectsStoreModule,
    FeatureStoresModule,
    AuthStoreModule,
  ],
  controllers: [EnvironmentsController],
  providers: [EnvironmentsService, EnvironmentCloneService],
  exports: [EnvironmentsService],
})
export class EnvironmentsModule {}
