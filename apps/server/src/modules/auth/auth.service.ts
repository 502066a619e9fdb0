import { FREE_KEYS_PER_IP_PER_DAY, type Role } from "@bundler/shared";
import type { Tx } from "../../db/client.ts";
import {
  accessKeyPrefix,
  digestsEqual,
  generateAccessKey,
  hashAccessKey,
} from "../../lib/crypto.ts";
import { ConflictError, TooManyRequestsError, UnauthorizedError } from "../../lib/errors.ts";
import { type AuthUser, type CachedKey, KeyCache } from "./auth.cache.ts";
import type { AuthRepository } from "./auth.repository.ts";

export type { AuthUser };

/** Last use is recorded at most this often, so validating a key stays a cache hit. */
const TOUCH_INTERVAL_MS = 60_000;

export class AuthService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly freeKeysPerIpPerDay: number = FREE_KEYS_PER_IP_PER_DAY,
    /** Serves nothing until it hears the database (see app.ts); the CLI never enables it. */
    readonly keys: KeyCache = new KeyCache(),
  ) {}

  /**
   * One free key per device, and at most `freeKeysPerIpPerDay` per client address in 24 hours:
   * a second request for the same device, or one past the address's allowance, is refused.
   * `referredBy` is the referrer whose code came with the request (already checked).
   */
  async generateFreeKey(
    deviceId: string,
    userAgent: string,
    ip: string,
    referredBy: string | null = null,
  ): Promise<string> {
    const refusal = new ConflictError(
      "This device already has an access key. Import the key you already have.",
    );
    if (await this.repository.findFreeKeyOf(deviceId)) throw refusal;
    const key = generateAccessKey();
    const row = await this.repository.withAddressLock(ip, async (tx) => {
      const given = await this.repository.countFreeKeysFrom(ip, tx);
      if (given >= this.freeKeysPerIpPerDay)
        throw new TooManyRequestsError(
          `This address already received ${this.freeKeysPerIpPerDay} free access keys in the last 24 hours, the most allowed: try again later, or import the key you already have`,
        );
      return this.repository.insert(
        {
          keyHash: hashAccessKey(key),
          keyPrefix: accessKeyPrefix(key),
          role: "user",
          keySource: "free",
          deviceId,
          userAgent: userAgent.slice(0, 512),
          createdIp: ip,
          referredBy,
        },
        tx,
      );
    });
    if (!row) throw refusal;
    return key;
  }

  /** Mints a key with a role, for the CLI and the first start. */
  async mintKey(role: Role): Promise<string> {
    const key = generateAccessKey();
    await this.repository.insert({
      keyHash: hashAccessKey(key),
      keyPrefix: accessKeyPrefix(key),
      role,
      keySource: "minted",
    });
    return key;
  }

  /**
   * A bought key, created inside `tx` (the transaction that marks its payment's key handed out):
   * the plaintext exists only in the answer; the database keeps its digest.
   */
  async createPurchasedKey(
    tx: Tx,
    owner: { deviceId: string; referredBy: string | null },
    key: string,
  ): Promise<{ key: string; userId: string }> {
    const row = await this.repository.insert(
      {
        keyHash: hashAccessKey(key),
        keyPrefix: accessKeyPrefix(key),
        role: "user",
        keySource: "purchased",
        deviceId: owner.deviceId,
        referredBy: owner.referredBy,
      },
      tx,
    );
    if (!row) throw new Error("the purchased key was not stored");
    return { key, userId: row.id };
  }

  /** Whether `key` is the key of user `userId`. */
  async isKeyOf(key: string, userId: string): Promise<boolean> {
    return (await this.repository.findByKeyHash(hashAccessKey(key)))?.id === userId;
  }

  /**
   * A role or activation change made inside `tx` (the admin's, with its audit row): this process
   * forgets the key once it committed; the others when the database's trigger tells them.
   */
  async changeInTransaction(
    tx: Tx,
    id: string,
    change: { role: Role } | { isActive: boolean },
  ): Promise<string | undefined> {
    return "role" in change
      ? this.repository.setRole(id, change.role, tx)
      : this.repository.setActive(id, change.isActive, tx);
  }

  /** Forgets a key's cached answer in this process (after a committed change). */
  forget(keyHash: string): void {
    this.keys.forget(keyHash);
  }

  /** The user behind a key, or null when it is unknown or inactive. */
  async authenticate(key: string | undefined): Promise<AuthUser | null> {
    if (!key) return null;
    const keyHash = hashAccessKey(key);
    let entry = this.keys.get(keyHash);
    if (entry === undefined) {
      const generation = this.keys.begin();
      entry = await this.lookUp(keyHash);
      this.keys.set(keyHash, entry, generation);
    }
    if (!entry?.user) return null;
    if (entry.lastUsedAt === null || Date.now() - entry.lastUsedAt > TOUCH_INTERVAL_MS) {
      // Set first, so requests arriving meanwhile don't record the same use again.
      entry.lastUsedAt = Date.now();
      await this.repository.touch(entry.user.id);
    }
    return entry.user;
  }

  private async lookUp(keyHash: string): Promise<CachedKey | null> {
    const row = await this.repository.findByKeyHash(keyHash);
    if (!row || !digestsEqual(row.keyHash, keyHash)) return null;
    return {
      user: row.isActive ? Object.freeze({ id: row.id, role: row.role }) : null,
      lastUsedAt: row.lastUsedAt?.getTime() ?? null,
    };
  }

  /**
   * Turns a key on or off. This process forgets the key at once; the others when the
   * database's trigger notifies them (within a second), or when their cached answer expires.
   */
  async setActive(id: string, isActive: boolean): Promise<void> {
    const keyHash = await this.repository.setActive(id, isActive);
    if (keyHash) this.keys.forget(keyHash);
  }

  /** Changes a key's role; it takes effect like `setActive`. */
  async setRole(id: string, role: Role): Promise<void> {
    const keyHash = await this.repository.setRole(id, role);
    if (keyHash) this.keys.forget(keyHash);
  }

  async validate(key: string): Promise<AuthUser> {
    const user = await this.authenticate(key);
    if (!user) throw new UnauthorizedError("Invalid access key");
    return user;
  }

  /** Whether an active superadmin key exists. */
  hasSuperadmin(): Promise<boolean> {
    return this.repository.hasRole("superadmin");
  }

  /** Mints a superadmin key when none exists yet; answers the key, or null. */
  async ensureSuperadmin(): Promise<string | null> {
    if (await this.hasSuperadmin()) return null;
    return this.mintKey("superadmin");
  }
}
