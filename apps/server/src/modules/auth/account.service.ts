import type { Account, AccountKey } from "@bundler/shared";
import type { Address } from "viem";
import { NotFoundError } from "../../lib/errors.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { AccountRepository } from "./account.repository.ts";

const notFound = () => new NotFoundError("User not found");

/**
 * The Account page's server side: what kind of key the caller holds, and every private key
 * the vault holds for them, for the backup file the browser encrypts. Each export is written
 * to the audit log in the transaction that reads the keys, so none leaves unrecorded.
 */
export class AccountService {
  constructor(
    private readonly repository: AccountRepository,
    private readonly vault: KeyVault,
  ) {}

  async account(userId: string): Promise<Account> {
    const row = await this.repository.find(userId);
    if (!row) throw notFound();
    return { kind: row.kind, role: row.role, createdAt: row.createdAt.toISOString() };
  }

  /** One key per address and purpose (a draft saved again stores its keys again): the first. */
  exportKeys(userId: string): Promise<AccountKey[]> {
    return this.repository.transaction(async (tx) => {
      const actor = await this.repository.find(userId, tx);
      if (!actor) throw notFound();
      const seen = new Set<string>();
      const keys: AccountKey[] = [];
      for (const row of await this.repository.ownedKeys(userId, tx)) {
        const id = `${row.purpose}:${row.address.toLowerCase()}`;
        if (seen.has(id)) continue;
        seen.add(id);
        keys.push({
          address: row.address as Address,
          purpose: row.purpose as AccountKey["purpose"],
          privateKey: this.vault.open(row.address, row.purpose, row),
          draftId: row.draftId,
          createdAt: row.createdAt.toISOString(),
        });
      }
      await this.repository.recordExport(tx, actor, keys.length);
      return keys;
    });
  }
}
