import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { buildDataSourceOptions } from './src/database/database-options';

// The data source for the TypeORM CLI (npm run typeorm -- migration:show, migration:run, …).
// It reads the same DATABASE_URL as the server.
export default new DataSource(
  buildDataSourceOptions(loadConfig().database, [__dirname + '/src/**/*.entity.{ts,js}']),
);
