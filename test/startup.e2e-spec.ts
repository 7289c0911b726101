import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

describe('start-up configuration', () => {
  it('stops with one line naming the variable when a value is invalid', () => {
    const result = spawnSync(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(__dirname, '..', 'src', 'main.ts')],
      { env: { PATH: process.env.PATH, PORT: 'not-a-port' }, encoding: 'utf8', timeout: 60000 },
    );
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'Invalid configuration: PORT must be an integer between 1 and 65535',
    ]);
  });
});
