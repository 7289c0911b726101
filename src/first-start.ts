/**
 * The first start's hand-over of secrets: printed to stdout (never through the JSON log) after
 * the server reports that it listens, so that it is the last thing on the screen rather than a
 * line scrolled away among the start-up logs. The secret exists outside its hash only here.
 */
export function firstStartNotice(
  secret: string | null,
  baseUrl: string,
  adminPassword: string | null = null,
): string {
  const tokenLines =
    secret === null
      ? []
      : [
          'No admin API token existed, so Flagkeeper created one. It is shown this once only:',
          '',
          `    ${secret}`,
          '',
          'Send it in the Authorization header, for example:',
          `    curl -H "Authorization: ${secret}" ${baseUrl}/api/admin/projects`,
          'Lost it? `npm run admin -- create-token` mints another against the same database.',
        ];
  const passwordLines =
    adminPassword === null
      ? []
      : [
          ...(tokenLines.length > 0 ? [''] : []),
          'No user existed, so Flagkeeper created the user admin. Its password, shown once:',
          '',
          `    ${adminPassword}`,
          '',
          `Sign in at ${baseUrl}/auth/simple/login, or set INIT_ADMIN_PASSWORD to choose it.`,
        ];
  const lines = [...tokenLines, ...passwordLines];
  const width = Math.max(...lines.map((line) => line.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return (
    ['', rule, ...lines.map((line) => `| ${line.padEnd(width)} |`), rule, ''].join('\n') + '\n'
  );
}

/** The address to show in examples: the bound host, or localhost when bound to every interface. */
export function displayUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
