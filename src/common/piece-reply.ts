import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { PiecePool } from './byte-pieces';

/**
 * How long a response waits for its client to take more before it gives up: a slow client still
 * reads something every few seconds, one that has stopped reads nothing at all.
 */
export const STALLED_MS = 60_000;

/**
 * Sends `pieces` (BytePieces) as a 200 response with `headers`, written to the socket as they
 * come, with backpressure, and gives each piece back to `pool` once the socket has written it
 * (the write's callback). A stream piped into the response could not say when that is.
 *
 * The first piece is asked for before anything is sent, so that a read failing at once throws
 * here and the error filter still answers with its error record. A failure after that can only
 * cut the body short: the connection is closed and `onFailure` told. When the client leaves, the
 * pieces are returned (`return`), which ends whatever reads them; so they are when it stops
 * reading for `stalledMs` (the connection is then closed, and `onFailure` told): whatever reads
 * the pieces (an export's read snapshot, a pooled connection on MySQL) is not held for a client
 * that keeps its connection open and reads nothing.
 */
export async function sendPieces(
  reply: FastifyReply,
  pieces: AsyncIterable<Buffer>,
  headers: Record<string, string>,
  pool: PiecePool,
  onFailure: (error: Error) => void,
  stalledMs = STALLED_MS,
): Promise<void> {
  const iterator = pieces[Symbol.asyncIterator]();
  let next = await iterator.next();
  reply.hijack();
  const res = reply.raw;
  // The headers the app's hooks set on the reply (request id, CORS) go out with these.
  for (const [name, value] of Object.entries({ ...reply.getHeaders(), ...headers })) {
    if (value !== undefined) res.setHeader(name, value);
  }
  res.writeHead(200);
  try {
    while (!next.done) {
      const piece = next.value;
      const more = res.write(piece, (error) => {
        if (!error) pool.give(piece);
      });
      if (!more && !(await drained(res, stalledMs))) {
        if (!res.destroyed) {
          onFailure(new Error(`the client read nothing for ${stalledMs} ms`));
          res.destroy();
        }
        return;
      }
      if (res.destroyed) return;
      next = await iterator.next();
    }
    res.end();
  } catch (error) {
    onFailure(error as Error);
    res.destroy();
  } finally {
    await iterator.return?.();
  }
}

/**
 * Whether the response can take more (`drain`), rather than having closed under the client or
 * waited `stalledMs` in vain.
 */
function drained(res: ServerResponse, stalledMs: number): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (more: boolean) => () => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(more);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    const timer = setTimeout(settle(false), stalledMs);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}
