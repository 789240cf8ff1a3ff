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
// The bytes live in one WebAssembly.Memory: V8 maps it directly from the system and
// grows it in place, so it never mixes with malloc's arenas. 1 MiB Buffers (malloc)
// did: between them, the load's short-lived allocations left holes malloc could not
// give back (measured: the same RSS as the strings, bench/history.md, memory).
// Documents are appended; a released one leaves a hole. When holes add up to more
// than half of what is live (a long run of edits), the owner copies the live
// documents into a fresh memory (compact()).

/** Where a document is: byte offset, and byte length × 4 + its encoding (ASCII, UTF8, UTF16). */
export interface DocRef {
  at: number;
  len: number;
}

// ASCII documents (most) decode as Latin-1: the same characters, without UTF-8's checks.
const ASCII = 0;
const UTF8 = 1;
const UTF16 = 2;
const bytesOf = (ref: DocRef) => Math.floor(ref.len / 4);

const PAGE = 65_536;
const MAX_PAGES = 65_536;

export class DocArena {
  private mem = new WebAssembly.Memory({ initial: 0, maximum: MAX_PAGES });
  private buf = Buffer.from(this.mem.buffer);
  private used = 0;
  private liveBytes = 0;

  /** Stores `doc` and points `ref` at it. */
  put(doc: string, ref: DocRef): void {
    const utf8 = Buffer.byteLength(doc, 'utf8');
    // UTF-8 takes up to 3 bytes a character, UTF-16 two: whichever is smaller.
    const kind = utf8 === doc.length ? ASCII : utf8 > 2 * doc.length ? UTF16 : UTF8;
    const bytes = kind === UTF16 ? 2 * doc.length : utf8;
    // len keeps bytes × 4 in 32 bits. A served document is a few KiB; the body limit
    // refuses anything near this long before it is stored.
    if (bytes >= 2 ** 30) throw new RangeError(`a served document of ${bytes} bytes is over the catalog's 1 GiB limit`);
    ref.at = this.reserve(bytes);
    ref.len = bytes * 4 + kind;
    this.buf.write(doc, ref.at, bytes, kind === UTF16 ? 'utf16le' : 'utf8');
  }

  get(ref: DocRef): string {
    const end = ref.at + bytesOf(ref);
    const kind = ref.len % 4;
    return this.buf.toString(kind === ASCII ? 'latin1' : kind === UTF8 ? 'utf8' : 'utf16le', ref.at, end);
  }

  /** The document at `ref` is no longer used. */
  drop(ref: DocRef): void {
    this.liveBytes -= bytesOf(ref);
  }

  /** True when the holes left by released documents are worth a compact(). */
  wasteful(): boolean {
    const waste = this.used - this.liveBytes;
    return waste > 4 << 20 && waste > this.liveBytes / 2;
  }

  /** Copies the documents of `refs` (every live one) into a fresh memory and repoints them. */
  compact(refs: Iterable<DocRef>): void {
    const old = this.restart();
    for (const ref of refs) ref.at = this.move(old, ref.at, ref.len);
  }

  /** compact() for refs kept in arrays (catalog-entries.ts): slots 0..count-1; a free slot has len 0. */
  compactArrays(count: number, at: Uint32Array, len: Uint32Array): void {
    const old = this.restart();
    for (let i = 0; i < count; i++) if (len[i]) at[i] = this.move(old, at[i]!, len[i]!);
  }

  private restart(): Buffer {
    const old = this.buf;
    this.mem = new WebAssembly.Memory({ initial: 0, maximum: MAX_PAGES });
    this.buf = Buffer.from(this.mem.buffer);
    this.used = 0;
    this.liveBytes = 0;
    return old;
  }

  /** Copies the document at `from` out of `old` to the end of this memory: its new offset. */
  private move(old: Buffer, from: number, len: number): number {
    const bytes = Math.floor(len / 4);
    const at = this.reserve(bytes);
    old.copy(this.buf, at, from, from + bytes);
    return at;
  }

  stats() {
    return { liveBytes: this.liveBytes, heldBytes: this.buf.length };
  }

  /** The offset of `bytes` more at the end, growing the memory by at least an eighth. */
  private reserve(bytes: number): number {
    const at = this.used;
    if (at + bytes > this.buf.length) {
      const pages = this.buf.length / PAGE;
      const need = Math.ceil((at + bytes) / PAGE) - pages;
      // The pages grown are not resident until written: growing ahead costs address space only.
      this.mem.grow(Math.min(MAX_PAGES - pages, Math.max(need, 16, pages >> 3)));
      this.buf = Buffer.from(this.mem.buffer);
    }
    this.used += bytes;
    this.liveBytes += bytes;
    return at;
  }
}
