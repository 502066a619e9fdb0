import type { Role } from "@bundler/shared";
import { LRUCache } from "lru-cache";
import type { ChannelHandlers } from "../../db/pg-listener.ts";

/** The channel the `users` triggers (migration 0007) announce changed key digests on. */
export const AUTH_KEYS_CHANNEL = "auth_keys";

/** Who a request with a valid access key is. */
export interface AuthUser {
  id: string;
  role: Role;
}

/** What one key digest authenticates as: `user` is null for a deactivated key. */
export interface CachedKey {
  user: Readonly<AuthUser> | null;
  /** When use of the key was last recorded, ms since the epoch (null: never). */
  lastUsedAt: number | null;
}

export interface KeyCacheOptions {
  /** Known digests kept (least recently used go first). */
  max?: number;
  /** How long an answer is trusted without a notification: the net under a missed one. */
  ttlMs?: number;
  /** Unknown digests remembered, in their own smaller cache so junk keys can't evict real ones. */
  unknownMax?: number;
  unknownTtlMs?: number;
}

/**
 * Key digest → user, so checking a key is not a database read per request. It serves nothing
 * until `listening` (it is the `ChannelHandlers` of a listener on `AUTH_KEYS_CHANNEL`) and
 * forgets everything when the listener is `lost`, so a change can only be missed for as long
 * as a notification takes to arrive. Every change to a key's role or state (or a new key)
 * notifies its digest; an answer read from the database while a notification came in is not
 * kept, since it may predate the change.
 */
export class KeyCache implements ChannelHandlers {
  private readonly known: LRUCache<string, CachedKey>;
  private readonly unknown: LRUCache<string, true>;
  private live = false;
  /** Bumped by every change heard: a read begun in an older generation is not cached. */
  private generation = 0;

  constructor(options: KeyCacheOptions = {}) {
    this.known = new LRUCache({ max: options.max ?? 10_000, ttl: options.ttlMs ?? 30_000 });
    this.unknown = new LRUCache({
      max: options.unknownMax ?? 1_000,
      ttl: options.unknownTtlMs ?? 5_000,
    });
  }

  /** The cached answer: an entry, null for a digest no key has, undefined when not cached. */
  get(digest: string): CachedKey | null | undefined {
    if (!this.live) return undefined;
    const entry = this.known.get(digest);
    if (entry) return entry;
    return this.unknown.get(digest) ? null : undefined;
  }

  /** Taken before reading the database; hand it back to `set`. */
  begin(): number {
    return this.generation;
  }

  /** Keeps what a read begun at `generation` found, unless a change was heard since. */
  set(digest: string, entry: CachedKey | null, generation: number): void {
    if (!this.live || generation !== this.generation) return;
    if (entry) this.known.set(digest, entry);
    else this.unknown.set(digest, true);
  }

  /** Drops one digest's answer (a change to that key). */
  forget(digest: string): void {
    this.generation++;
    this.known.delete(digest);
    this.unknown.delete(digest);
  }

  clear(): void {
    this.generation++;
    this.known.clear();
    this.unknown.clear();
  }

  /** Whether it serves answers: the listener is connected. */
  get isListening(): boolean {
    return this.live;
  }

  get size(): number {
    return this.known.size + this.unknown.size;
  }

  message(payload: string): void {
    if (payload === "*") this.clear();
    else this.forget(payload);
  }

  listening(): void {
    this.clear();
    this.live = true;
  }

  lost(): void {
    this.live = false;
    this.clear();
  }
}
