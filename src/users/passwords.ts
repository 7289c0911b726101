import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are hashed with scrypt (RFC 7914): N = 2^15, r = 8, p = 1, a 16-byte random salt and a
 * 64-byte key, about 32 MiB and some 50–100 ms per hash on this machine. The parameters are stored
 * with each hash, so they can be raised later without invalidating existing passwords.
 */
const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(
      password,
      salt,
      KEY_LENGTH,
      { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, LOG_N, R, P);
  return `scrypt$${LOG_N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * Whether the password matches the stored hash. With no hash (an unknown user, or a user without
 * a password) it still derives a key, so that the answer takes as long as for a wrong password.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$');
  if (!parts || parts.length !== 6 || parts[0] !== 'scrypt') {
    await derive(password, randomBytes(16), LOG_N, R, P);
    return false;
  }
  const [, logN, r, p, salt, expected] = parts;
  const key = await derive(password, Buffer.from(salt, 'base64'), +logN, +r, +p);
  const wanted = Buffer.from(expected, 'base64');
  return wanted.length === key.length && timingSafeEqual(wanted, key);
}
