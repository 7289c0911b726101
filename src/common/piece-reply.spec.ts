import { get, IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { FastifyInstance } from 'fastify';
import { PIECE_BYTES, PiecePool } from './byte-pieces';
import { sendPieces } from './piece-reply';

/** A real Fastify server on loopback whose one route sends `pieces()` with sendPieces. */
async function serve(
  pieces: () => AsyncGenerator<Buffer>,
  pool: PiecePool,
  failures: Error[],
  thrown: unknown[],
  stalledMs?: number,
): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.get('/', async (_request, reply) => {
    try {
      await sendPieces(
        reply,
        pieces(),
        { 'content-type': 'text/plain' },
        pool,
        (error) => failures.push(error),
        stalledMs,
      );
    } catch (error) {
      thrown.push(error);
      throw error;
    }
    return reply;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/` };
}

function piece(fill: string): Buffer {
  const bytes = Buffer.allocUnsafe(PIECE_BYTES);
  bytes.fill(fill);
  return bytes;
}

/** Pieces without end, and a promise kept once their generator has been returned. */
function endless(): { pieces: () => AsyncGenerator<Buffer>; returned: Promise<void> } {
  let ended!: () => void;
  const returned = new Promise<void>((resolve) => (ended = resolve));
  async function* pieces(): AsyncGenerator<Buffer> {
    try {
      for (;;) yield piece('a');
    } finally {
      ended();
    }
  }
  return { pieces, returned };
}

describe('sendPieces', () => {
  it('sends every piece, then gives each back to the pool once written', async () => {
    const pool = new PiecePool(8);
    const failures: Error[] = [];
    const { app, url } = await serve(
      async function* () {
        yield piece('a');
        yield piece('b');
        yield Buffer.from('end'); // not a piece of the pool's size: not taken back
      },
      pool,
      failures,
      [],
    );
    try {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain');
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.toString()).toBe(`${'a'.repeat(PIECE_BYTES)}${'b'.repeat(PIECE_BYTES)}end`);
      expect(pool.size).toBe(2);
      expect(failures).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('a failure before the first piece is thrown, before anything is sent', async () => {
    const thrown: unknown[] = [];
    const { app, url } = await serve(
      // eslint-disable-next-line require-yield
      async function* () {
        throw new Error('no rows today');
      },
      new PiecePool(8),
      [],
      thrown,
    );
    try {
      const res = await fetch(url);
      // Fastify's own error answer: the reply was not taken over.
      expect(res.status).toBe(500);
      expect(thrown.map((error) => (error as Error).message)).toEqual(['no rows today']);
    } finally {
      await app.close();
    }
  });

  it('a failure after the first piece cuts the body short and is reported, not thrown', async () => {
    const failures: Error[] = [];
    const thrown: unknown[] = [];
    const { app, url } = await serve(
      async function* () {
        yield piece('a');
        throw new Error('the read failed');
      },
      new PiecePool(8),
      failures,
      thrown,
    );
    try {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      await expect(res.arrayBuffer()).rejects.toThrow();
      expect(failures.map((error) => error.message)).toEqual(['the read failed']);
      expect(thrown).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('a client that leaves ends the pieces (their generator is returned)', async () => {
    const { pieces, returned } = endless();
    const { app, url } = await serve(pieces, new PiecePool(8), [], []);
    try {
      // The client closes its connection after the first bytes, while the server waits for room.
      await new Promise<void>((resolve, reject) => {
        const req = get(url, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error) => {
          if (!req.destroyed) reject(error);
        });
      });
      await returned;
    } finally {
      await app.close();
    }
  });

  it('a client that stops reading and keeps its connection is let go after stalledMs', async () => {
    const { pieces, returned } = endless();
    const failures: Error[] = [];
    const { app, url } = await serve(pieces, new PiecePool(8), failures, [], 200);
    try {
      const client = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = get(url, (res) => {
          res.once('data', () => {
            res.pause();
            resolve(res);
          });
        });
        req.on('error', reject);
      });
      // The server gives up and closes the connection; the client itself never does.
      await returned;
      const closed = new Promise<boolean>((resolve) => {
        client.on('error', () => undefined);
        client.once('close', () => resolve(!client.complete));
      });
      client.resume();
      expect(await closed).toBe(true);
      expect(failures.map((error) => error.message)).toEqual([
        'the client read nothing for 200 ms',
      ]);
    } finally {
      await app.close();
    }
  });
});
