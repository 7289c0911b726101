/** The value of one cookie in a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=') || undefined;
  }
  return undefined;
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (no cross-site POST carries it),
 * Secure when the request came over HTTPS, for the whole site.
 */
export function sessionCookie(name: string, value: string, maxAgeSeconds: number, secure: boolean) {
  return [
    `${name}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
