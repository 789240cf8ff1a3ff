// The served catalog's versions (src/core/catalog.ts): version id → the prompt's name,
// how many views point at the version, and its document (in a DocArena). One entry
// per distinct version, shared by every label view pointing at it.
//
// Typed arrays instead of a Map<number, object>: at 100,000 prompts the Map's table
// (3.5 MiB) and 100k small objects (~5.6 MiB) lived in V8's old generation, which V8
// keeps committed well past what is live (bench/history.md, memory). Here an entry is
// 16 bytes in four arrays outside the heap plus its slot in one array of names, and
// the id → slot index is an open-addressing table of 4 bytes a bucket, at most
// three-quarters full.
import { DocArena, type DocRef } from './catalog-docs.js';

const EMPTY = 0; // index buckets hold slot + 1

export class EntryTable {
  private readonly docs = new DocArena();
  /** bucket → slot + 1 (0: empty); linear probing, removal by backward shift (no tombstones) */
  private index = new Int32Array(64);
  private ids = new Int32Array(16);
  private at = new Uint32Array(16);
  /** DocArena's length × 4 + encoding (DocArena.put refuses a document of 1 GiB or more); 0 in a free slot */
  private len = new Uint32Array(16);
  private refs = new Int32Array(16);
  private names: (string | undefined)[] = [];
  /** slots below `top` are in use or on `free` */
  private top = 0;
  private free: number[] = [];
  private count = 0;
  private readonly scratch: DocRef = { at: 0, len: 0 };

  get size(): number {
    return this.count;
  }

  has(id: number): boolean {
    return this.slotOf(id) >= 0;
  }

  /** Adds version `id` (not held yet) with one view pointing at it. */
  add(id: number, name: string, doc: string): void {
    if ((this.count + 1) * 4 > this.index.length * 3) this.rehash(this.index.length * 2);
    let slot = this.free.pop();
    if (slot === undefined) {
      if (this.top === this.ids.length) this.growSlots();
      slot = this.top++;
    }
    this.docs.put(doc, this.scratch);
    this.ids[slot] = id;
    this.at[slot] = this.scratch.at;
    this.len[slot] = this.scratch.len;
    this.refs[slot] = 1;
    this.names[slot] = name;
    this.count++;
    const mask = this.index.length - 1;
    let b = hash(id) & mask;
    while (this.index[b] !== EMPTY) b = (b + 1) & mask;
    this.index[b] = slot + 1;
  }

  /** One more view points at version `id` (held), under `name` now; false when the name changed. */
  retain(id: number, name: string): boolean {
    const slot = this.slotOf(id);
    this.refs[slot] = this.refs[slot]! + 1;
    if (this.names[slot] === name) return true;
    this.names[slot] = name;
    return false;
  }

  /** One view fewer points at version `id`: true when none does any more and it is gone. */
  release(id: number): boolean {
    const slot = this.slotOf(id);
    if (slot < 0 || --this.refs[slot]! > 0) return false;
    this.remove(id, slot);
    return true;
  }

  nameOf(id: number): string | undefined {
    const slot = this.slotOf(id);
    return slot < 0 ? undefined : this.names[slot];
  }

  docOf(id: number): string | undefined {
    const slot = this.slotOf(id);
    if (slot < 0) return undefined;
    this.scratch.at = this.at[slot]!;
    this.scratch.len = this.len[slot]!;
    return this.docs.get(this.scratch);
  }

  stats() {
    return this.docs.stats();
  }

  private slotOf(id: number): number {
    const mask = this.index.length - 1;
    for (let b = hash(id) & mask; ; b = (b + 1) & mask) {
      const s = this.index[b]!;
      if (s === EMPTY) return -1;
      if (this.ids[s - 1] === id) return s - 1;
    }
  }

  private remove(id: number, slot: number): void {
    this.scratch.at = this.at[slot]!;
    this.scratch.len = this.len[slot]!;
    this.docs.drop(this.scratch);
    this.len[slot] = 0;
    this.names[slot] = undefined;
    this.free.push(slot);
    this.count--;
    // Backward-shift deletion: later buckets of the probe run move up into the hole.
    const mask = this.index.length - 1;
    let hole = hash(id) & mask;
    while (this.index[hole] !== slot + 1) hole = (hole + 1) & mask;
    for (let b = (hole + 1) & mask; this.index[b] !== EMPTY; b = (b + 1) & mask) {
      const home = hash(this.ids[this.index[b]! - 1]!) & mask;
      // Move b's entry into the hole unless its home lies cyclically in (hole, b].
      if (((b - home) & mask) >= ((b - hole) & mask)) {
        this.index[hole] = this.index[b]!;
        hole = b;
      }
    }
    this.index[hole] = EMPTY;
    if (this.docs.wasteful()) this.docs.compactArrays(this.top, this.at, this.len);
  }

  private rehash(buckets: number): void {
    const old = this.index;
    this.index = new Int32Array(buckets);
    const mask = buckets - 1;
    for (const s of old) {
      if (s === EMPTY) continue;
      let b = hash(this.ids[s - 1]!) & mask;
      while (this.index[b] !== EMPTY) b = (b + 1) & mask;
      this.index[b] = s;
    }
  }

  private growSlots(): void {
    const n = this.ids.length * 2;
    const grow = <T extends Int32Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.ids = grow(this.ids, (k) => new Int32Array(k));
    this.at = grow(this.at, (k) => new Uint32Array(k));
    this.len = grow(this.len, (k) => new Uint32Array(k));
    this.refs = grow(this.refs, (k) => new Int32Array(k));
  }
}

/** Fibonacci hashing: ids are mostly consecutive integers, which a plain mask would cluster. */
const hash = (id: number) => Math.imul(id, 0x9e3779b1) >>> 7;
