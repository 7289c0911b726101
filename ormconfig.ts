import 'reflect-metadata';
import { loadConfig } from './src/config/app-config';
import { buildDataSourceOptions } from './src/database/database-options';
import { ENTITY_FILES, FlagkeeperDataSource } from './src/database/flagkeeper-data-source';

// The data source for the TypeORM CLI (npm run typeorm -- migration:show, migration:generate, …).
// It reads the same DATABASE_URL as the server and describes the entities the way the server does.
export default new FlagkeeperDataSource(
  buildDataSourceOptions(loadConfig().database, ENTITY_FILES),
);
