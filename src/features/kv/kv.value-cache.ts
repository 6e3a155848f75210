/** A value as read from the store, with its expiry (epoch ms). */
export interface CachedValue {
  readonly value: string;
  readonly expiresAt: number;
}

/** Entries kept at most; beyond, the oldest filled goes. */
const MAX_ENTRIES = 50_000;
/** Characters of values kept at most (a value is up to 1,000): with the entries' keys, tens of MB at worst. */
const MAX_VALUE_CHARACTERS = 8_000_000;

/**
 * The values of recent KV reads, so a repeated `GET /kv` answers from memory instead of asking the store (a
 * third of the store's share of a read, measured). Only where this process is the database's sole writer
 * (`Store.soleWriter`: SQLite, one instance): every set and delete of a key passes here and forgets it before
 * it is acknowledged, so a read after an acknowledged write never sees the older value. Expired rows are
 * removed by the sweeper without telling anyone, which is safe: an entry keeps its expiry and a read past it
 * finds nothing, as the store's own read would. A deleted wallet's entries are never read again (wallet ids
 * are not reused) and age out.
 *
 * A read that was under way while its key was forgotten must not fill the cache with what it read: `fill`
 * takes the generation `begin` returned and does nothing once a `forget` came in between.
 */
export class KvValueCache {
  private readonly entries = new Map<string, CachedValue>();
  private characters = 0;
  private generation = 0;

  constructor(
    private readonly maxEntries = MAX_ENTRIES,
    private readonly maxCharacters = MAX_VALUE_CHARACTERS,
  ) {}

  static key(walletId: number, bucket: string, key: string): string {
    return `${walletId}\u0000${bucket}\u0000${key}`;
  }

  get(name: string): CachedValue | undefined {
    return this.entries.get(name);
  }

  /** Before reading the store for a value to `fill` in. */
  begin(): number {
    return this.generation;
  }

  /** Keeps what a read begun at `generation` found, unless a key was forgotten meanwhile. */
  fill(name: string, value: CachedValue, generation: number): void {
    if (generation !== this.generation || value.value.length > this.maxCharacters) return;
    this.remove(name);
    this.entries.set(name, value);
    this.characters += value.value.length;
    while (this.entries.size > this.maxEntries || this.characters > this.maxCharacters) {
      const oldest = this.entries.keys().next().value as string;
      this.remove(oldest);
    }
  }

  /** The key was written (or is about to be): its value is read from the store again from now on. */
  forget(name: string): void {
    this.generation++;
    this.remove(name);
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(name: string): void {
    const old = this.entries.get(name);
    if (old === undefined) return;
    this.entries.delete(name);
    this.characters -= old.value.length;
  }
}
