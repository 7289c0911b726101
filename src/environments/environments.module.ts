import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Environment } from './environment.entity';
import { EnvironmentsController } from './environments.controller';
import { EnvironmentsService } from './environments.service';
import { EnvironmentCloneService } from './environment-clone.service';
import { ProjectsModule } from '../projects/projects.module';

@Module({
  imports: [TypeOrmModule.forFeature([Environment]), ProjectsModule],
  controllers: [EnvironmentsController],
  providers: [EnvironmentsService, EnvironmentCloneService],
  exports: [EnvironmentsService],
})
export class EnvironmentsModule {}
