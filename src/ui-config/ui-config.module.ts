import { Module } from '@nestjs/common';
import { UiConfigController } from './ui-config.controller';
import { UiConfigService } from './ui-config.service';

/** What admin frontends read before their first screen. */
@Module({ controllers: [UiConfigController], providers: [UiConfigService] })
export class UiConfigModule {}
