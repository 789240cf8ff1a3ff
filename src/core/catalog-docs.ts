// The served catalog's documents (src/core/catalog.ts) as bytes in a few large
// buffers outside the V8 heap, instead of 100,000 strings inside it.
//
// Why not strings: the bytes are the same (V8 stores ASCII text one byte a character),
// but V8 sizes its old generation from what is live in it. With the documents in the
// heap (58 MiB of 100k prompts' 77 MiB live), every full collection allowed the heap to
// grow well past that before the next one, and the committed pages stayed resident
// (bench/history.md, memory). Out of the heap they cost their bytes and nothing more,
// and the collector never looks at them. Decoding one is a copy (~0.4 µs for 600 bytes,
// against ~2 µs for the JSON.parse that follows it).
//
// Documents are appended to the current chunk; a released document leaves a hole, and
// a chunk whose documents are all released is dropped. When holes add up to more than
// half of what is live (a long run of edits), the owner copies the live documents into
// fresh chunks (compact()).

/** Where a document is: chunk index, byte offset, byte length (negative: UTF-16LE). */
export interface DocRef {
  c: number;
  at: number;
  len: number;
}

const CHUNK = 1 << 20;
/** A document this large gets a chunk of its own (inline images can be megabytes). */
const OWN_CHUNK = CHUNK >> 2;
const EMPTY = Buffer.alloc(0);

export class DocArena {
  private chunks: Buffer[] = [];
  /** live bytes per chunk */
  private live: number[] = [];
  /** the chunk small documents go into, and the bytes used in it */
  private cur = -1;
  private used = 0;
  private liveBytes = 0;
  private heldBytes = 0;

  /** Stores `doc` and points `ref` at it. */
  put(doc: string, ref: DocRef): void {
    const utf8 = Buffer.byteLength(doc, 'utf8');
    // UTF-8 takes up to 3 bytes a character, UTF-16 two: whichever is smaller.
    const wide = utf8 > 2 * doc.length;
    const bytes = wide ? 2 * doc.length : utf8;
    this.place(bytes, ref);
    this.chunks[ref.c]!.write(doc, ref.at, bytes, wide ? 'utf16le' : 'utf8');
    ref.len = wide ? -bytes : bytes;
  }

  get(ref: DocRef): string {
    const chunk = this.chunks[ref.c]!;
    return ref.len >= 0 ? chunk.toString('utf8', ref.at, ref.at + ref.len) : chunk.toString('utf16le', ref.at, ref.at - ref.len);
  }

  /** The document at `ref` is no longer used. */
  drop(ref: DocRef): void {
    const bytes = Math.abs(ref.len);
    this.liveBytes -= bytes;
    if ((this.live[ref.c]! -= bytes) === 0 && ref.c !== this.cur) {
      this.heldBytes -= this.chunks[ref.c]!.length;
      this.chunks[ref.c] = EMPTY;
    }
  }

  /** True when the holes left by released documents are worth a compact(). */
  wasteful(): boolean {
    const waste = this.heldBytes - this.liveBytes;
    return waste > 4 * CHUNK && waste > this.liveBytes / 2;
  }

  /** Copies the documents of `refs` (every live one) into fresh chunks and repoints them. */
  compact(refs: Iterable<DocRef>): void {
    const old = this.chunks;
    this.chunks = [];
    this.live = [];
    this.cur = -1;
    this.liveBytes = 0;
    this.heldBytes = 0;
    for (const ref of refs) {
      const src = old[ref.c]!;
      const from = ref.at;
      const bytes = Math.abs(ref.len);
      this.place(bytes, ref);
      src.copy(this.chunks[ref.c]!, ref.at, from, from + bytes);
    }
  }

  stats() {
    return { chunks: this.chunks.filter((c) => c.length).length, liveBytes: this.liveBytes, heldBytes: this.heldBytes };
  }

  /** Reserves `bytes`: in the current chunk if they fit, else a new one (own-sized when large). */
  private place(bytes: number, ref: DocRef): void {
    if (bytes >= OWN_CHUNK) {
      ref.c = this.add(Buffer.allocUnsafeSlow(bytes));
      ref.at = 0;
    } else {
      if (this.cur < 0 || this.used + bytes > CHUNK) {
        this.cur = this.add(Buffer.allocUnsafeSlow(CHUNK));
        this.used = 0;
      }
      ref.c = this.cur;
      ref.at = this.used;
      this.used += bytes;
    }
    this.live[ref.c]! += bytes;
    this.liveBytes += bytes;
  }

  private add(chunk: Buffer): number {
    this.heldBytes += chunk.length;
    this.live.push(0);
    return this.chunks.push(chunk) - 1;
  }
}
