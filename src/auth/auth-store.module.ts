import { Module } from '@nestjs/common';
import { AuthStore } from './auth.store';

/** The auth store alone, for the clone's copy of permissions (see FeatureStoresModule). */
@Module({ providers: [AuthStore], exports: [AuthStore] })
export class AuthStoreModule {}
