import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('defaults to SQLite in ./data with no variables set', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      database: { type: 'better-sqlite3', path: './data/flagkeeper.sqlite' },
      initAdminApiTokens: [],
      initAdminPassword: null,
      sessionIdleMs: 8 * 60 * 60_000,
      sessionMaxMs: 7 * 24 * 3_600_000,
      logLevel: 'info',
      corsOrigins: [],
    });
  });

  it('selects the MySQL dialect for mysql:// and mariadb:// URLs', () => {
    expect(
      loadConfig({ DATABASE_URL: 'mysql://u:p@db:3306/flags', DATABASE_POOL_SIZE: '4' }).database,
    ).toEqual({
      type: 'mysql',
      url: 'mysql://u:p@db:3306/flags',
      poolSize: 4,
    });
    expect(loadConfig({ DATABASE_URL: 'mariadb://u@db/flags' }).database).toEqual({
      type: 'mariadb',
      url: 'mysql://u@db/flags',
      poolSize: 10,
    });
  });

  it('splits the list variables', () => {
    const config = loadConfig({
      INIT_ADMIN_API_TOKENS: '*:*.aaaaaaaaaaaaaaaa, *:*.bbbbbbbbbbbbbbbb',
      CORS_ORIGINS: 'https://a.example, https://b.example',
    });
    expect(config.initAdminApiTokens).toEqual(['*:*.aaaaaaaaaaaaaaaa', '*:*.bbbbbbbbbbbbbbbb']);
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
  });

  it.each([
    ['PORT', 'abc', /PORT must be an integer/],
    ['PORT', '70000', /PORT must be an integer/],
    ['DATABASE_URL', 'postgres://x', /DATABASE_URL must be/],
    ['DATABASE_POOL_SIZE', '0', /DATABASE_POOL_SIZE/],
    ['INIT_ADMIN_API_TOKENS', '*:*.short', /INIT_ADMIN_API_TOKENS/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
  ])('rejects %s=%s with a message naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('does not echo a secret in the error message', () => {
    expect(() => loadConfig({ INIT_ADMIN_API_TOKENS: 'secret-value-1234567890' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('secret-value') }),
    );
  });
});
