import { ServiceUnavailableError } from '../common/errors';
import { RETRY_POLICY, retryTransient } from './transient-retry';

function driverError(code: string, errno?: number, message = code): Error {
  return Object.assign(new Error(message), { code, errno });
}

describe('retryTransient', () => {
  it('runs the work again after a deadlock and returns its result', async () => {
    let calls = 0;
    const result = await retryTransient(async () => {
      calls++;
      if (calls < 3) throw driverError('ER_LOCK_DEADLOCK', 1213);
      return 'done';
    });
    expect(result).toBe('done');
    expect(calls).toBe(3);
  });

  it('retries lock wait timeouts, Galera certification failures and SQLITE_BUSY', async () => {
    const transient = [
      driverError('ER_LOCK_WAIT_TIMEOUT', 1205),
      driverError(
        'ER_UNKNOWN',
        undefined,
        'WSREP detected deadlock/conflict and aborted the transaction. Try restarting the transaction',
      ),
      driverError('SQLITE_BUSY'),
      Object.assign(new Error('query failed'), { driverError: { code: 'ER_LOCK_DEADLOCK' } }),
    ];
    for (const error of transient) {
      let calls = 0;
      await expect(
        retryTransient(async () => {
          if (calls++ === 0) throw error;
          return calls;
        }),
      ).resolves.toBe(2);
    }
  });

  it('answers 503 once the retries are used up', async () => {
    let calls = 0;
    await expect(
      retryTransient(async () => {
        calls++;
        throw driverError('ER_LOCK_DEADLOCK', 1213);
      }),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(calls).toBe(RETRY_POLICY.attempts);
  });

  it('passes any other error through at once', async () => {
    let calls = 0;
    const duplicate = driverError('ER_DUP_ENTRY', 1062);
    await expect(
      retryTransient(async () => {
        calls++;
        throw duplicate;
      }),
    ).rejects.toBe(duplicate);
    expect(calls).toBe(1);
  });
});
