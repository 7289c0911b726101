import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type DatabaseConfig =
  | { type: 'better-sqlite3'; path: string }
  | { type: 'mysql' | 'mariadb'; url: string; poolSize: number };

/** The environment variables this service reads, validated once at start (rules.md §1). */
class EnvironmentVariables {
  @IsOptional()
  @Transform(({ value }: { value: string }) => (value === '' ? undefined : Number(value)))
  @IsInt({ message: 'PORT must be an integer between 1 and 65535' })
  @Min(1, { message: 'PORT must be an integer between 1 and 65535' })
  @Max(65535, { message: 'PORT must be an integer between 1 and 65535' })
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @Matches(/^(sqlite:.+|(mysql|mariadb):\/\/.+)$/, {
    message: 'DATABASE_URL must be sqlite:PATH, mysql://user:pass@host:port/db or mariadb://…',
  })
  DATABASE_URL?: string;

  @IsOptional()
  @Transform(({ value }: { value: string }) => (value === '' ? undefined : Number(value)))
  @IsInt({ message: 'DATABASE_POOL_SIZE must be an integer between 1 and 1000' })
  @Min(1, { message: 'DATABASE_POOL_SIZE must be an integer between 1 and 1000' })
  @Max(1000, { message: 'DATABASE_POOL_SIZE must be an integer between 1 and 1000' })
  DATABASE_POOL_SIZE?: number;

  @IsOptional()
  @Matches(/^\s*\*:\*\.[^,\s]{16,}\s*(,\s*\*:\*\.[^,\s]{16,}\s*)*$/, {
    message:
      'INIT_ADMIN_API_TOKENS must be a comma-separated list of admin tokens of the form *:*.<secret of at least 16 characters>',
  })
  INIT_ADMIN_API_TOKENS?: string;

  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL?: LogLevel;

  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  @IsOptional()
  @IsString()
  @MinLength(12, { message: 'INIT_ADMIN_PASSWORD must be at least 12 characters long' })
  INIT_ADMIN_PASSWORD?: string;

  @IsOptional()
  @Transform(({ value }: { value: string }) => (value === '' ? undefined : Number(value)))
  @IsInt({ message: 'SESSION_IDLE_MINUTES must be an integer between 1 and 525600' })
  @Min(1, { message: 'SESSION_IDLE_MINUTES must be an integer between 1 and 525600' })
  @Max(525600, { message: 'SESSION_IDLE_MINUTES must be an integer between 1 and 525600' })
  SESSION_IDLE_MINUTES?: number;

  @IsOptional()
  @Transform(({ value }: { value: string }) => (value === '' ? undefined : Number(value)))
  @IsInt({ message: 'SESSION_MAX_HOURS must be an integer between 1 and 8760' })
  @Min(1, { message: 'SESSION_MAX_HOURS must be an integer between 1 and 8760' })
  @Max(8760, { message: 'SESSION_MAX_HOURS must be an integer between 1 and 8760' })
  SESSION_MAX_HOURS?: number;
}

const CONFIG_KEYS = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'INIT_ADMIN_API_TOKENS',
  'LOG_LEVEL',
  'CORS_ORIGINS',
  'INIT_ADMIN_PASSWORD',
  'SESSION_IDLE_MINUTES',
  'SESSION_MAX_HOURS',
] as const;

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  initAdminApiTokens: string[];
  logLevel: LogLevel;
  corsOrigins: string[];
  /** The first admin user's password; generated and printed once when not set. */
  initAdminPassword: string | null;
  /** A session ends after this long unused, and in any case after sessionMaxMs. */
  sessionIdleMs: number;
  sessionMaxMs: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/flagkeeper.sqlite';

export function parseDatabaseUrl(url: string, poolSize = 10): DatabaseConfig {
  if (url.startsWith('sqlite:')) {
    return { type: 'better-sqlite3', path: url.slice('sqlite:'.length) };
  }
  // mariadb:// selects TypeORM's mariadb dialect; both go through the mysql2 driver.
  const type = url.startsWith('mariadb://') ? 'mariadb' : 'mysql';
  return { type, url: url.replace(/^mariadb:/, 'mysql:'), poolSize };
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/**
 * Reads and validates the configuration. Throws a ConfigError whose message names the first
 * invalid variable; nothing else in the code base reads process.env.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = plainToInstance(EnvironmentVariables, raw);
  const errors = validateSync(parsed, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const first = errors[0];
    const message = Object.values(first.constraints ?? {})[0] ?? `${first.property} is invalid`;
    // The value is not echoed: DATABASE_URL, INIT_ADMIN_API_TOKENS and INIT_ADMIN_PASSWORD carry
    // secrets.
    throw new ConfigError(`Invalid configuration: ${message}`);
  }
  return {
    port: parsed.PORT ?? 3000,
    host: parsed.HOST ?? '0.0.0.0',
    database: parseDatabaseUrl(
      parsed.DATABASE_URL ?? DEFAULT_DATABASE_URL,
      parsed.DATABASE_POOL_SIZE ?? 10,
    ),
    initAdminApiTokens: splitList(parsed.INIT_ADMIN_API_TOKENS),
    logLevel: parsed.LOG_LEVEL ?? 'info',
    corsOrigins: splitList(parsed.CORS_ORIGINS),
    initAdminPassword: parsed.INIT_ADMIN_PASSWORD ?? null,
    sessionIdleMs: (parsed.SESSION_IDLE_MINUTES ?? 8 * 60) * 60_000,
    sessionMaxMs: (parsed.SESSION_MAX_HOURS ?? 7 * 24) * 3_600_000,
  };
}
