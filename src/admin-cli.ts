import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { ApiTokensService } from './auth/api-tokens.service';
import { ConfigError, loadConfig } from './config/app-config';

const USAGE = [
  'Usage: npm run admin -- create-token [--name NAME]',
  '',
  '  create-token   mint a new admin API token in the configured database (DATABASE_URL)',
  '                 and print its secret once; for when the first one is lost',
].join('\n');

/** Administration commands run against the configured database, without the HTTP server. */
async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command !== 'create-token') {
    process.stderr.write(`${USAGE}\n`);
    return command === undefined || command === '--help' ? 0 : 2;
  }
  const nameAt = rest.indexOf('--name');
  const tokenName = nameAt >= 0 ? rest[nameAt + 1] : `admin-cli-${new Date().toISOString()}`;
  if (!tokenName || rest.length !== (nameAt >= 0 ? 2 : 0)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot(config, { databaseRetryAttempts: 0 }),
    { logger: ['error'] },
  );
  try {
    const tokens = app.get(ApiTokensService);
    // On a database without any admin token, starting the context just made one: hand that over
    // instead of making a second.
    const secret =
      tokens.takeGeneratedSecret() ??
      (
        await tokens.create(
          { tokenName, type: 'admin' },
          // The operator at the console holds every right over the database anyway.
          {
            tokenId: 0,
            tokenName: 'admin-cli',
            type: 'admin',
            grants: [{ permission: 'ADMIN', environment: null }],
            expiresAt: null,
          },
        )
      ).secret;
    process.stdout.write(`${secret}\n`);
    process.stderr.write(
      'A new admin API token (shown this once only) is above. Send it in the Authorization header.\n',
    );
  } finally {
    await app.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // One line, never a stack: the message of a configuration or database error says what to fix.
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `${error instanceof ConfigError ? '' : 'create-token failed: '}${message}\n`,
    );
    process.exit(1);
  },
);
