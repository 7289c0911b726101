/** Large enough that a write is not a syscall per item; the response stream buffers up to 16. */
export const PIECE_BYTES = 64 * 1024;

/**
 * A response body gathered into pieces of PIECE_BYTES, for bodies of megabytes (the export, the
 * project list): `text` encodes a string into the current piece, `bytes` copies bytes that are
 * already UTF-8, `take` hands over the pieces filled so far and `end` the rest.
 *
 * A piece is below glibc's mmap threshold (128 KiB, fixed in the image), so it comes from the
 * heap and its memory is used again by the next body. One buffer of the whole body would be a
 * fresh mapping each time, and on this service's machines every page of a fresh mapping is a
 * fault that costs microseconds (docs/benchmarks.md, "Figures of 2026-12-07"). An item is never
 * split between pieces; one larger than a piece gets a piece of its own size.
 *
 * Writing bytes instead of building a piece as a string by `+=`: such a string was a rope of
 * hundreds of items, which the response flattened, measured (for the chunk's length) and encoded;
 * writing bytes took the SQLite export to 0.9 of its time (docs/benchmarks.md, "Figures of
 * 2026-11-29").
 */
export class BytePieces {
  private piece: Buffer;
  private used = 0;
  private full: Buffer[] = [];

  /** `pool`: where the pieces of PIECE_BYTES come from, when their sender gives them back. */
  constructor(private readonly pool?: PiecePool) {
    this.piece = this.fresh(PIECE_BYTES);
  }

  /** As UTF-8, which is what the response would have encoded the string as. */
  text(text: string): void {
    // A UTF-16 unit takes at most 3 bytes; only near the end of a piece is the exact size needed.
    if (text.length * 3 > this.piece.length - this.used) this.room(Buffer.byteLength(text));
    this.used += this.piece.write(text, this.used);
  }

  bytes(bytes: Buffer): void {
    this.room(bytes.length);
    this.used += bytes.copy(this.piece, this.used);
  }

  /** The pieces filled so far (none, mostly). */
  take(): Buffer[] {
    const full = this.full;
    this.full = [];
    return full;
  }

  /** Every piece not taken yet, the last one as far as it is filled. */
  end(): Buffer[] {
    if (this.used > 0) this.full.push(this.piece.subarray(0, this.used));
    // The pieces handed over are never written again: a later write starts a new piece.
    this.piece = Buffer.alloc(0);
    this.used = 0;
    return this.take();
  }

  /** Starts a new piece when `length` bytes do not fit in the current one. */
  private room(length: number): void {
    if (length <= this.piece.length - this.used) return;
    if (this.used > 0) this.full.push(this.piece.subarray(0, this.used));
    this.piece = this.fresh(Math.max(PIECE_BYTES, length));
    this.used = 0;
  }

  private fresh(length: number): Buffer {
    return length === PIECE_BYTES && this.pool ? this.pool.take() : Buffer.allocUnsafe(length);
  }
}

/**
 * Pieces of PIECE_BYTES given back by the response once the socket has written them, for the next
 * body to fill. A piece dropped instead lives until V8's next collection of the young generation,
 * and so do the bytes malloc gave it: a 10,000-feature export writes megabytes between two such
 * collections, and the main heap kept the high-water mark of the pieces waiting for one (after 20
 * back-to-back exports of 10,000 features, 20–22 MiB against 10–14 with the pool;
 * docs/decisions-export.md, "Warm exports' memory").
 */
export class PiecePool {
  private readonly free: Buffer[] = [];

  /** `max`: the most pieces held while no body needs them. */
  constructor(private readonly max: number) {}

  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafe(PIECE_BYTES);
  }

  /**
   * `piece` (a piece as BytePieces handed it over, its whole memory or the start of it) is no
   * longer read by anyone. Pieces of another size, and those past `max`, are left to the GC.
   */
  give(piece: Buffer): void {
    const memory = piece.buffer;
    if (memory.byteLength !== PIECE_BYTES || piece.byteOffset !== 0) return;
    if (this.free.length < this.max) this.free.push(Buffer.from(memory, 0, PIECE_BYTES));
  }

  /** The pieces held (tests). */
  get size(): number {
    return this.free.length;
  }
}
