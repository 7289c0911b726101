import { execFileSync } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';

/** The release whose compiled admin UI the browser test drives (issue 11). */
export const UNLEASH_VERSION = '7.5.1';

const REPO_ROOT = resolve(__dirname, '..', '..');
const CACHE_DIR = join(REPO_ROOT, '.cache', 'unleash-ui', UNLEASH_VERSION);

/**
 * The folder holding Unleash's compiled admin UI (index.html and static/). Fetched once with
 * `npm pack` into the gitignored .cache/ and reused by every later run; only the UI's files are
 * unpacked. Unpacking goes to a temporary folder that is renamed at the end, so an interrupted
 * run never leaves a half-filled cache behind that later runs would trust.
 */
export function unleashUiBuild(): string {
  const build = join(CACHE_DIR, 'package', 'frontend', 'build');
  if (existsSync(join(build, 'index.html'))) return build;
  const staging = `${CACHE_DIR}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const tarball = execFileSync(
    'npm',
    ['pack', `unleash-server@${UNLEASH_VERSION}`, '--silent', '--pack-destination', staging],
    { cwd: staging, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
    .trim()
    .split('\n')
    .pop() as string;
  execFileSync('tar', ['-xzf', join(staging, tarball), '-C', staging, 'package/frontend/build']);
  rmSync(join(staging, tarball));
  rmSync(CACHE_DIR, { recursive: true, force: true });
  renameSync(staging, CACHE_DIR);
  return build;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The paths Unleash's own server answers itself rather than with the UI. */
const API_PREFIXES = ['/api/', '/auth/', '/logout', '/health'];

function isApiPath(pathname: string): boolean {
  return API_PREFIXES.some((prefix) =>
    prefix.endsWith('/')
      ? pathname.startsWith(prefix)
      : pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
}

/**
 * index.html as Unleash's server renders it at the root path: its placeholders filled (no base
 * path, no CDN, no UI flags, no frontend token) and the web-font links removed, since the test
 * machine has no outside network and the page would otherwise wait on them.
 */
function renderIndex(build: string): string {
  const filled = readFileSync(join(build, 'index.html'), 'utf8')
    .replaceAll('::baseUriPath::', '')
    .replaceAll('::cdnPrefix::', '')
    .replaceAll('::faviconPrefix::', '')
    .replaceAll('::uiFlags::', encodeURIComponent('{}'))
    .replaceAll('::unleashToken::', '');
  return filled.replace(/<link\b[^>]*\bhref="https:\/\/fonts\.[^"]*"[^>]*>/g, '');
}

export interface UiServer {
  /** The origin the browser opens, e.g. http://127.0.0.1:41234. */
  origin: string;
  /** Every forwarded API call that answered 5xx or 404, as "METHOD path status". */
  apiFailures: string[];
  close(): Promise<void>;
}

/**
 * One origin, as Unleash serves itself: the UI's static files, index.html for every other page
 * path (the UI routes in the browser), and the API paths forwarded unchanged, cookies included,
 * to Flagkeeper listening on `upstreamPort`.
 */
export async function serveUnleashUi(build: string, upstreamPort: number): Promise<UiServer> {
  const root = resolve(build) + sep;
  const index = renderIndex(build);
  const apiFailures: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (isApiPath(url.pathname)) {
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: upstreamPort,
          method: req.method,
          path: url.pathname + url.search,
          headers: req.headers,
        },
        (answer) => {
          const status = answer.statusCode ?? 502;
          if (status >= 500 || status === 404)
            apiFailures.push(`${req.method} ${url.pathname}${url.search} ${status}`);
          res.writeHead(status, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        apiFailures.push(`${req.method} ${url.pathname} 502`);
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
      return;
    }
    let file: string | undefined;
    try {
      const candidate = resolve(root, `.${normalize(decodeURIComponent(url.pathname))}`);
      if (candidate.startsWith(root) && statSync(candidate, { throwIfNoEntry: false })?.isFile())
        file = candidate;
    } catch {
      // A malformed escape is simply not a file; it falls through to the page or a 404 below.
    }
    if (file) {
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      });
      createReadStream(file).pipe(res);
    } else if (url.pathname.startsWith('/static/')) {
      res.writeHead(404).end();
    } else {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(index);
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    apiFailures,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
