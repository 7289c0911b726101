import { Module } from '@nestjs/common';
import { AuthStore } from './auth.store';
import { AuthVersion } from './auth-version.service';

/**
 * The auth store alone, for the clone's copy of permissions (see FeatureStoresModule), with the
 * auth version that such a change moves.
 */
@Module({ providers: [AuthStore, AuthVersion], exports: [AuthStore, AuthVersion] })
export class AuthStoreModule {}
