import 'reflect-metadata';
import pino from 'pino';
import { createApp } from './app-setup';
import { ApiTokensService } from './auth/api-tokens.service';
import { createLogger } from './common/logger';
import { ConfigError, loadConfig } from './config/app-config';
import { displayUrl, firstStartNotice } from './first-start';
import { UsersService } from './users/users.service';

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
  const logger = createLogger(config.logLevel);
  const app = await createApp(config, { logger });
  await app.listen(config.port, config.host);
  const secret = app.get(ApiTokensService).takeGeneratedSecret();
  const password = app.get(UsersService).takeGeneratedPassword();
  if (secret || password) {
    // Through the log's own stream, not through the JSON log: pino writes stdout asynchronously,
    // and a direct write could overtake the log lines the notice must follow.
    const stdout = (logger as unknown as Record<symbol, { write(text: string): void }>)[
      pino.symbols.streamSym
    ];
    stdout.write(firstStartNotice(secret, displayUrl(config.host, config.port), password));
  }
}

void bootstrap();
