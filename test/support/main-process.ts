import { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The repository root, and the node arguments that run a TypeScript entry point as `npm start` would. */
export const ROOT = join(__dirname, '..', '..');
export const TS_NODE = ['-r', 'ts-node/register/transpile-only'];

/** A TCP port free on the loopback interface right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Reads the child's stdout until `done` says the output so far is complete. */
export function waitForOutput(
  child: ChildProcess,
  done: (out: string) => boolean,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (done(out)) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before: ${out}`)));
  });
}

/** The first start's framed notice has been printed completely (its closing rule). */
export const firstStartNoticePrinted = (text: string): boolean => /\n\+-+\+\n\n?$/.test(text);
