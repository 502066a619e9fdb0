import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { addressOfKey } from "@bundler/chain";
import { and, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Address, Hex } from "viem";
import type { Db, Tx } from "../db/client.ts";
import { walletKeys } from "../db/schema.ts";

export type KeyPurpose = "deployer" | "bundle" | "tip" | "payment" | "dispersal" | "bumper";

export interface StoredKey {
  address: Address;
  purpose: KeyPurpose;
  privateKey: Hex;
}

export interface SealedKey {
  ciphertext: string;
  iv: string;
  tag: string;
  keyId: string;
}

/** The AAD binds a ciphertext to its address and purpose: a row copied elsewhere fails to open. */
const aad = (address: string, purpose: KeyPurpose) =>
  Buffer.from(`wallet-key:v1:${address.toLowerCase()}:${purpose}`, "utf8");

/** Normalises a key to 0x + 64 lowercase hex, or throws. */
export const normalizePrivateKey = (key: string): Hex => {
  const trimmed = key.trim();
  const hex = trimmed.startsWith("0x") || trimmed.startsWith("0X") ? trimmed.slice(2) : trimmed;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error("Invalid private key");
  return `0x${hex.toLowerCase()}`;
};

/**
 * Every private key the server holds, encrypted at rest: AES-256-GCM under the master key,
 * a random 12-byte IV per record, AAD = address + purpose, and the master key's id so it can
 * be rotated (old ids stay readable while `keys` still holds them). Never logs a key.
 */
export class KeyVault {
  private readonly keys: Map<string, Buffer>;

  constructor(
    private readonly db: Db,
    masterKey: Buffer,
    private readonly currentKeyId = "mk1",
    olderKeys: Record<string, Buffer> = {},
  ) {
    if (masterKey.length !== 32) throw new Error("the master key must be 32 bytes");
    this.keys = new Map([...Object.entries(olderKeys), [currentKeyId, masterKey]]);
  }

  /**
   * A secret for `label`, derived from the current master key (HMAC-SHA256): the same label
   * gives the same 32 bytes for as long as that key is current.
   */
  derive(label: string): Buffer {
    return createHmac("sha256", this.keys.get(this.currentKeyId) as Buffer)
      .update(`bundler:${label}`)
      .digest();
  }

  seal(address: string, purpose: KeyPurpose, privateKey: Hex): SealedKey {
    const key = this.keys.get(this.currentKeyId) as Buffer;
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(aad(address, purpose));
    const ciphertext = Buffer.concat([
      cipher.update(Buffer.from(privateKey.slice(2), "hex")),
      cipher.final(),
    ]);
    return {
      ciphertext: ciphertext.toString("base64"),
      iv: iv.toString("base64"),
      tag: cipher.getAuthTag().toString("base64"),
      keyId: this.currentKeyId,
    };
  }

  open(address: string, purpose: KeyPurpose, sealed: SealedKey): Hex {
    const key = this.keys.get(sealed.keyId);
    if (!key) throw new Error(`master key ${sealed.keyId} is not loaded`);
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.iv, "base64"));
    decipher.setAAD(aad(address, purpose));
    decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
    const plain = Buffer.concat([
      decipher.update(Buffer.from(sealed.ciphertext, "base64")),
      decipher.final(),
    ]);
    return `0x${plain.toString("hex")}`;
  }

  /**
   * Stores keys and answers their addresses: committed when this resolves, or inside `tx`
   * (committed with it, rolled back with it).
   */
  async store(
    entries: Array<{ privateKey: Hex; purpose: KeyPurpose }>,
    owner: { ownerId: string | null; draftId?: string | null },
    tx?: Tx,
  ): Promise<StoredKey[]> {
    if (entries.length === 0) return [];
    const stored = entries.map(({ privateKey, purpose }) => ({
      address: addressOfKey(privateKey),
      purpose,
      privateKey,
    }));
    await (tx ?? this.db).insert(walletKeys).values(
      stored.map((entry) => ({
        address: entry.address,
        purpose: entry.purpose,
        ownerId: owner.ownerId,
        draftId: owner.draftId ?? null,
        ...this.seal(entry.address, entry.purpose, entry.privateKey),
      })),
    );
    return stored;
  }

  /** Runs `work` in one transaction: every write given its `tx` commits or none does. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Bundle keys the owner generated (stored without a draft) in the last 24 hours. */
  async countGenerated(ownerId: string, tx: Tx): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(walletKeys)
      .where(
        and(
          eq(walletKeys.ownerId, ownerId),
          eq(walletKeys.purpose, "bundle"),
          isNull(walletKeys.draftId),
          gt(walletKeys.createdAt, sql`now() - interval '24 hours'`),
        ),
      );
    return row?.n ?? 0;
  }

  /** The decrypted keys stored for a draft (newest row wins per address and purpose). */
  async forDraft(draftId: string, purposes: readonly KeyPurpose[]): Promise<StoredKey[]> {
    const rows = await this.db
      .select()
      .from(walletKeys)
      .where(and(eq(walletKeys.draftId, draftId), inArray(walletKeys.purpose, purposes)))
      .orderBy(walletKeys.createdAt);
    const byKey = new Map<string, StoredKey>();
    for (const row of rows) {
      byKey.set(`${row.purpose}:${row.address.toLowerCase()}`, {
        address: row.address as Address,
        purpose: row.purpose,
        privateKey: this.open(row.address, row.purpose, row),
      });
    }
    return [...byKey.values()];
  }

  /**
   * Which keys of `purpose` the vault holds for these drafts, as `draftId:lowercase address`,
   * in one query and without decrypting any.
   */
  async heldForDrafts(draftIds: string[], purpose: KeyPurpose): Promise<Set<string>> {
    if (draftIds.length === 0) return new Set();
    const rows = await this.db
      .select({ draftId: walletKeys.draftId, address: walletKeys.address })
      .from(walletKeys)
      .where(and(inArray(walletKeys.draftId, draftIds), eq(walletKeys.purpose, purpose)));
    return new Set(rows.map((row) => `${row.draftId}:${row.address.toLowerCase()}`));
  }

  /** Many keys of one purpose in one query, by lowercase address; missing ones are absent. */
  async findMany(addresses: string[], purpose: KeyPurpose): Promise<Map<string, Hex>> {
    const found = new Map<string, Hex>();
    if (addresses.length === 0) return found;
    const rows = await this.db
      .select()
      .from(walletKeys)
      .where(and(inArray(walletKeys.address, addresses), eq(walletKeys.purpose, purpose)));
    for (const row of rows)
      found.set(row.address.toLowerCase(), this.open(row.address, purpose, row));
    return found;
  }

  /**
   * Which of `addresses` are wallets only the server holds (payment addresses, dispersal
   * wallets), by lowercase address: money must never be sent back into them as a refund.
   */
  async platformPurposes(
    addresses: string[],
  ): Promise<Map<string, { address: Address; purpose: KeyPurpose }>> {
    const found = new Map<string, { address: Address; purpose: KeyPurpose }>();
    if (addresses.length === 0) return found;
    const rows = await this.db
      .select({ address: walletKeys.address, purpose: walletKeys.purpose })
      .from(walletKeys)
      .where(
        and(
          inArray(walletKeys.address, [...new Set(addresses)]),
          inArray(walletKeys.purpose, ["payment", "dispersal"]),
        ),
      );
    for (const row of rows)
      found.set(row.address.toLowerCase(), {
        address: row.address as Address,
        purpose: row.purpose,
      });
    return found;
  }

  /** Which keys (purpose and address) the vault holds for a draft, decrypting none. */
  async heldForDraft(
    draftId: string,
    purposes: KeyPurpose[],
    tx?: Tx,
  ): Promise<Array<{ address: Address; purpose: KeyPurpose }>> {
    const rows = await (tx ?? this.db)
      .select({ address: walletKeys.address, purpose: walletKeys.purpose })
      .from(walletKeys)
      .where(and(eq(walletKeys.draftId, draftId), inArray(walletKeys.purpose, purposes)));
    return rows.map((row) => ({ address: row.address as Address, purpose: row.purpose }));
  }

  /**
   * Deletes a draft's rows of these keys (every row with that purpose and address, any case),
   * inside `tx`. Only for keys the draft no longer names and whose address never held or moved
   * money (see drafts' replaced-keys.ts): a key of a wallet with money is never deleted.
   */
  async forgetDraftKeys(
    draftId: string,
    keys: ReadonlyArray<{ address: string; purpose: KeyPurpose }>,
    tx: Tx,
  ): Promise<number> {
    let deleted = 0;
    for (const key of keys) {
      const gone = await tx
        .delete(walletKeys)
        .where(
          and(
            eq(walletKeys.draftId, draftId),
            eq(walletKeys.purpose, key.purpose),
            sql`lower(${walletKeys.address}) = ${key.address.toLowerCase()}`,
          ),
        )
        .returning({ id: walletKeys.id });
      deleted += gone.length;
    }
    return deleted;
  }

  /**
   * Whether the master key opens what is stored: the newest stored key opened and checked to be
   * the key of its address (`null` when nothing is stored yet). Throws, with the reason, when it
   * does not open.
   */
  async openNewest(): Promise<{ address: string; matches: boolean } | null> {
    const [row] = await this.db
      .select()
      .from(walletKeys)
      .orderBy(desc(walletKeys.createdAt))
      .limit(1);
    if (!row) return null;
    const key = this.open(row.address, row.purpose, row);
    return {
      address: row.address,
      matches: addressOfKey(key).toLowerCase() === row.address.toLowerCase(),
    };
  }

  /** One key by address and purpose, or undefined (read inside `tx` when given). */
  async find(address: string, purpose: KeyPurpose, tx?: Tx): Promise<Hex | undefined> {
    const [row] = await (tx ?? this.db)
      .select()
      .from(walletKeys)
      .where(and(eq(walletKeys.address, address), eq(walletKeys.purpose, purpose)))
      .limit(1);
    return row ? this.open(row.address, row.purpose, row) : undefined;
  }
}
