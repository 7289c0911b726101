import { Module } from '@nestjs/common';
import { ProjectsStore } from './projects.store';

/** The projects store alone, for the clone (see FeatureStoresModule). */
@Module({ providers: [ProjectsStore], exports: [ProjectsStore] })
export class ProjectsStoreModule {}
