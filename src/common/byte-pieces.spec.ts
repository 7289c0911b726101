import { BytePieces, PIECE_BYTES, PiecePool } from './byte-pieces';

describe('BytePieces', () => {
  it('gathers text and bytes into pieces of at most PIECE_BYTES, never splitting a write', () => {
    const out = new BytePieces();
    const item = Buffer.from(`{"name":"${'x'.repeat(990)}"}`); // 1,001 bytes
    const writes = 200;
    for (let i = 0; i < writes; i++) {
      if (i % 2 === 0) out.bytes(item);
      else out.text(item.toString('latin1'));
    }
    const pieces = [...out.take(), ...out.end()];
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(PIECE_BYTES);
      expect(piece.length % item.length).toBe(0);
    }
    expect(Buffer.concat(pieces)).toEqual(Buffer.concat(Array(writes).fill(item)));
  });

  it('encodes text as UTF-8, also where a piece ends', () => {
    const out = new BytePieces();
    const filler = 'a'.repeat(PIECE_BYTES - 3);
    out.text(filler);
    out.text('é€'); // 2 + 3 bytes: do not fit in the 3 left
    const pieces = out.end();
    expect(pieces.map((piece) => piece.length)).toEqual([PIECE_BYTES - 3, 5]);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(`${filler}é€`);
  });

  it('gives a write larger than a piece a piece of its own', () => {
    const out = new BytePieces();
    const large = Buffer.alloc(PIECE_BYTES * 2 + 1, 'y');
    out.text('[');
    out.bytes(large);
    out.text(']');
    expect(out.end().map((piece) => piece.length)).toEqual([1, large.length, 1]);
  });

  it('never writes again into a piece it handed over', () => {
    const out = new BytePieces();
    out.text('first');
    const [first] = out.end();
    out.text('later');
    const [later] = out.end();
    expect(first.toString()).toBe('first');
    expect(later.toString()).toBe('later');
    expect(out.end()).toEqual([]);
  });
});

describe('PiecePool', () => {
  it('hands out again the pieces given back, up to its size', () => {
    const pool = new PiecePool(2);
    const out = new BytePieces(pool);
    out.text('x'.repeat(PIECE_BYTES));
    out.text('y');
    const [full, last] = [...out.take(), ...out.end()];
    expect(full.length).toBe(PIECE_BYTES);
    expect(last.length).toBe(1); // the start of a whole piece
    pool.give(full);
    pool.give(last);
    pool.give(Buffer.allocUnsafe(PIECE_BYTES)); // past the size
    expect(pool.size).toBe(2);
    const again = new BytePieces(pool);
    again.text('z');
    const [piece] = again.end();
    expect([full.buffer, last.buffer]).toContain(piece.buffer);
    expect(piece.toString()).toBe('z');
    expect(pool.size).toBe(1);
  });

  it('takes no piece of another size, nor a view that does not start one', () => {
    const pool = new PiecePool(4);
    pool.give(Buffer.allocUnsafe(PIECE_BYTES * 2));
    pool.give(Buffer.allocUnsafe(PIECE_BYTES + 1).subarray(1));
    pool.give(Buffer.allocUnsafe(PIECE_BYTES).subarray(1));
    expect(pool.size).toBe(0);
  });
});
