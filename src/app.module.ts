import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSourceOptions, type Logger as TypeOrmLogger } from 'typeorm';
import { AuthGuard } from './auth/auth.guard';
import { AuthModule } from './auth/auth.module';
import { ErrorRecordFilter } from './common/error-record.filter';
import { RequestValidationPipe } from './common/validation.pipe';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ContextFieldsModule } from './context-fields/context-fields.module';
import { boundDatabaseWaits } from './database/bounded-waits';
import { buildDataSourceOptions } from './database/database-options';
import { FlagkeeperDataSource } from './database/flagkeeper-data-source';
import { runMigrationsUnderLock } from './database/migration-lock.store';
import { serializeSqliteTransactions } from './database/sqlite-serializer';
import { retryTransientConflicts } from './database/transient-retry';
import { EnvironmentsModule } from './environments/environments.module';
import { EventsModule } from './events/events.module';
import { ExportModule } from './export/export.module';
import { ImportModule } from './import/import.module';
import { FeaturesModule } from './features/features.module';
import { FeedbackModule } from './feedback/feedback.module';
import { HealthModule } from './health/health.module';
import { ProjectsModule } from './projects/projects.module';
import { SegmentsModule } from './segments/segments.module';
import { UsersModule } from './users/users.module';
import { StrategyTypesModule } from './strategy-types/strategy-types.module';
import { TagsModule } from './tags/tags.module';
import { UiConfigModule } from './ui-config/ui-config.module';

export interface AppModuleOptions {
  /** How often to retry the first database connection at start (tests use 0). */
  databaseRetryAttempts?: number;
  /** Receives every SQL statement; tests use it to count statements. */
  sqlLogger?: TypeOrmLogger;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...buildDataSourceOptions(config.database),
            ...(options.sqlLogger
              ? { logger: options.sqlLogger, logging: ['query' as const] }
              : {}),
            autoLoadEntities: true,
            retryAttempts: options.databaseRetryAttempts ?? 10,
            retryDelay: 3000,
          }),
          dataSourceFactory: async (dataSourceOptions) => {
            const dataSource = await new FlagkeeperDataSource(
              dataSourceOptions as DataSourceOptions,
              false,
            ).initialize();
            if (dataSource.options.type === 'better-sqlite3')
              serializeSqliteTransactions(dataSource);
            await runMigrationsUnderLock(dataSource);
            // After the migrations, whose statements may rightly take longer than a request's.
            boundDatabaseWaits(dataSource);
            // Retries deadlocks, lock-wait timeouts and Galera certification failures.
            retryTransientConflicts(dataSource);
            return dataSource;
          },
        }),
        AuthModule,
        HealthModule,
        ProjectsModule,
        EnvironmentsModule,
        ContextFieldsModule,
        SegmentsModule,
        TagsModule,
        UiConfigModule,
        StrategyTypesModule,
        FeaturesModule,
        FeedbackModule,
        ExportModule,
        EventsModule,
        UsersModule,
        ImportModule,
      ],
      providers: [
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        { provide: APP_FILTER, useClass: ErrorRecordFilter },
        { provide: APP_GUARD, useExisting: AuthGuard },
      ],
    };
  }
}
