import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './app-setup';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen(config.port, config.host);
}

void bootstrap();
