import { Module } from '@nestjs/common';
import { EnvironmentsStore } from './environments.store';

/** The environments store alone, for modules below EnvironmentsModule (see FeatureStoresModule). */
@Module({ providers: [EnvironmentsStore], exports: [EnvironmentsStore] })
export class EnvironmentsStoreModule {}
