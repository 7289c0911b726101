import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EnvironmentsStoreModule } from '../environments/environments-store.module';
import { FeatureStoresModule } from '../features/feature-stores.module';
import { SegmentsStoreModule } from '../segments/segments-store.module';
import { AuthStoreModule } from '../auth/auth-store.module';
import { ProjectOverviewController } from './project-overview.controller';
import { ProjectOverviewService } from './project-overview.service';
import { ProjectsStoreModule } from './projects-store.module';
import { FlagCreatorsController } from './flag-creators.controller';
import { Project } from './project.entity';
import { ProjectEnvironment } from './project-environment.entity';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Project, ProjectEnvironment]),
    ProjectsStoreModule,
    EnvironmentsStoreModule,
    FeatureStoresModule,
    SegmentsStoreModule,
    AuthStoreModule,
  ],
  controllers: [ProjectsController, ProjectOverviewController, FlagCreatorsController],
  providers: [ProjectsService, ProjectOverviewService],
  exports: [ProjectsService],
})
export class ProjectsModule {}
