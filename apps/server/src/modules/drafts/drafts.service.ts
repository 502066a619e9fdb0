import { addressOfKey, getBalances, tokenPageUrl } from "@bundler/chain";
import {
  DRAFTS_PAGE_SIZE,
  type Draft,
  type DraftSummary,
  launchReadinessError,
  QUOTAS,
  type TokenInfo,
} from "@bundler/shared";
import { type Address, getAddress } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { ConflictError, NotFoundError } from "../../lib/errors.ts";
import { failpoint } from "../../lib/failpoints.ts";
import type { KeyPurpose, KeyVault } from "../../lib/key-vault.ts";
import { lockUser } from "../../lib/quota.ts";
import { recentBnbBalances } from "../../lib/shared-reads.ts";
import { type ParsedDraftInput, splitDraftInput } from "./draft-input.ts";
import { type StoredWalletConfig, toDraft, toDraftSummary } from "./draft-presenter.ts";
import type {
  AddressesRow,
  DraftRow,
  DraftsRepository,
  ListedDraftRow,
  PaymentRow,
} from "./drafts.repository.ts";
import { decodeServableLogo, LOGO_HASH_PATTERN, logoHashOf } from "./logo.ts";
import type { PaymentRefunds } from "./payment-refunds.ts";
import { forgettableKeys, type KeyRef, refOf, replacedKeys } from "./replaced-keys.ts";

/** The keys a draft holds: its deployer, bundle wallets and tip payer. */
const DRAFT_KEY_PURPOSES: KeyPurpose[] = ["deployer", "bundle", "tip"];

/** A draft expires this long after its last update, unless its wallets hold money. */
export const DRAFT_LIFETIME_MS = 30 * 24 * 3600 * 1000;

export type { ParsedDraftInput, StoredWalletConfig };

/** Statuses whose draft cannot change. A draft waiting for its payment can: the fee is per draft. */
const LOCKED: Record<string, string> = {
  executing: "This draft is being launched right now and cannot be changed",
  executed: "This draft was already launched and cannot be changed",
};

export const draftNotFound = () => new NotFoundError("Draft not found");

/**
 * SPEC §5's launch readiness of a stored draft, given whether its deployer key is held. A listed
 * row has no logo, only `hasLogo`.
 */
const launchProblemOf = (
  row: DraftRow | ListedDraftRow,
  deployerKeyHeld: boolean,
): string | null => {
  const info = row.tokenInfo as Partial<TokenInfo>;
  return launchReadinessError({
    name: info.name,
    symbol: info.symbol,
    description: info.description,
    image: "hasLogo" in row ? row.hasLogo : info.image,
    deployerKeyValid: deployerKeyHeld,
    tip: (row.walletConfig as StoredWalletConfig).tip,
  });
};

export interface DraftPage {
  drafts: DraftSummary[];
  total: number;
  page: number;
  pageSize: number;
}

export class DraftsService {
  constructor(
    readonly repository: DraftsRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    /** Each draft's refunds (the payment side of the module fills it in). */
    private readonly refunds?: Pick<PaymentRefunds, "withPayments">,
  ) {}

  /** The drafts' payments (their current one among them) and refunds, in the fewest reads. */
  private async paymentsAndRefundsOf(
    rows: Array<Pick<DraftRow, "id" | "paymentId">>,
  ): Promise<{ payments: PaymentRow[]; refunds: Map<string, Draft["refunds"]> }> {
    if (this.refunds) return this.refunds.withPayments(rows.map((r) => r.id));
    const ids = rows.map((r) => r.paymentId).filter((p): p is string => !!p);
    return { payments: await this.repository.paymentsByIds(ids), refunds: new Map() };
  }

  async create(ownerId: string, input: ParsedDraftInput): Promise<Draft> {
    const { deployerAddress, walletConfig, keys } = splitDraftInput(input);
    const row = await this.repository.transaction(async (tx) => {
      await lockUser(tx, ownerId);
      if ((await this.repository.countOpen(ownerId, tx)) >= QUOTAS.openDrafts)
        throw new ConflictError(
          `You already have ${QUOTAS.openDrafts} open drafts, the most one key may keep: delete a draft you no longer need, or launch one, then try again`,
        );
      const row = await this.repository.insert(
        {
          ownerId,
          tokenInfo: input.tokenInfo,
          logoHash: logoHashOf(input.tokenInfo.image),
          deployerAddress,
          walletConfig,
          expiresAt: new Date(Date.now() + DRAFT_LIFETIME_MS),
        },
        tx,
      );
      await this.vault.store(keys, { ownerId, draftId: row.id }, tx);
      return row;
    });
    return this.present(row);
  }

  async update(ownerId: string, id: string, input: ParsedDraftInput): Promise<Draft> {
    const current = await this.owned(ownerId, id);
    if (LOCKED[current.status]) throw new ConflictError(LOCKED[current.status] as string);
    const { deployerAddress, walletConfig, keys } = splitDraftInput(input);
    const named = keys.map((k) => ({ address: addressOfKey(k.privateKey), purpose: k.purpose }));
    // Keys this update replaces go with it, unless their address ever held or moved money:
    // checked first outside the transaction (most keys stay: no chain read inside it for them),
    // then again inside it, right before the delete.
    const forgettable = await forgettableKeys(
      replacedKeys(await this.vault.heldForDraft(id, DRAFT_KEY_PURPOSES), named),
      ownerId,
      this.repository,
      this.chain,
    );
    await failpoint("drafts.keysChecked");
    // The new keys, the row that names them and the replaced keys' removal commit together.
    const row = await this.repository.transaction(async (tx) => {
      // The owner's lock first, as everything else that takes it (a payment, a dispersal):
      // a dispersal of theirs to one of the replaced addresses is recorded before this
      // transaction or after it, never between the second look below and the delete.
      await lockUser(tx, ownerId);
      const row = await this.repository.updateIf(
        id,
        ownerId,
        ["draft", "pending_payment", "paid"],
        {
          tokenInfo: input.tokenInfo,
          logoHash: logoHashOf(input.tokenInfo.image),
          deployerAddress,
          walletConfig,
          expiresAt: new Date(Date.now() + DRAFT_LIFETIME_MS),
        },
        tx,
      );
      if (!row) {
        const now = await this.repository.findOwned(id, ownerId, tx);
        if (!now) throw draftNotFound();
        throw new ConflictError(LOCKED[now.status] ?? "This draft changed meanwhile, try again");
      }
      // Read under the row's lock (the update holds it), so concurrent updates cannot each
      // leave a key to the other: every key this one names is stored once, as a new row.
      const held = new Set((await this.vault.heldForDraft(id, DRAFT_KEY_PURPOSES, tx)).map(refOf));
      const fresh = keys.filter((_, i) => !held.has(refOf(named[i] as KeyRef)));
      await this.vault.store(fresh, { ownerId, draftId: id }, tx);
      // Money may have reached an address after the first look: a key is deleted only if a
      // second look, in this transaction, finds it unused too.
      const still = await forgettableKeys(
        replacedKeys(forgettable, named),
        ownerId,
        {
          everUsed: (addresses) => this.repository.everUsed(addresses, tx),
          ownerTokens: (owner) => this.repository.ownerTokens(owner, tx),
        },
        this.chain,
      );
      await this.vault.forgetDraftKeys(id, still, tx);
      return row;
    });
    return this.present(row);
  }

  async get(ownerId: string, id: string): Promise<Draft> {
    return this.present(await this.owned(ownerId, id));
  }

  /**
   * Why the draft cannot be paid for or launched (SPEC §5 "Launch execute", in its words), or
   * null. The deployer key counts as valid only when the vault holds it for this draft.
   */
  async launchProblem(row: DraftRow): Promise<string | null> {
    return (await this.launchProblems([row])).get(row.id) ?? null;
  }

  /** `launchProblem` for many drafts, with one look at the vault (no key is decrypted). */
  private async launchProblems(
    rows: Array<DraftRow | ListedDraftRow>,
  ): Promise<Map<string, string | null>> {
    const held = await this.vault.heldForDrafts(
      rows.filter((row) => row.deployerAddress).map((row) => row.id),
      "deployer",
    );
    const keyHeld = (row: DraftRow) => held.has(`${row.id}:${row.deployerAddress?.toLowerCase()}`);
    return new Map(rows.map((row) => [row.id, launchProblemOf(row, keyHeld(row))]));
  }

  async owned(ownerId: string, id: string): Promise<DraftRow> {
    const row = await this.repository.findOwned(id, ownerId);
    if (!row) throw draftNotFound();
    return row;
  }

  /**
   * One page of the owner's live drafts, newest change first; an expired one stays while its
   * wallets hold money. Expiry applies to unpaid drafts and to launched ones (whose wallets may
   * hold the launched token); a draft with a payment or a launch in flight never expires.
   * Paging is exact: every expired draft is judged first, in one batched chain read, and only
   * then is the visible set counted and cut into pages by the database.
   */
  async list(ownerId: string, page: number): Promise<DraftPage> {
    const now = new Date();
    const expired = await this.repository.expiredOwned(ownerId, now);
    const keep = await this.holdingMoney(expired);
    const { rows, total } = await this.repository.pageVisible(ownerId, {
      now,
      keep,
      limit: DRAFTS_PAGE_SIZE,
      offset: (page - 1) * DRAFTS_PAGE_SIZE,
    });
    return { drafts: await this.summarize(rows), total, page, pageSize: DRAFTS_PAGE_SIZE };
  }

  /** A live draft's logo by the hash in its URL: bytes and type, or null when none is served. */
  async logo(hash: string): Promise<{ contentType: string; bytes: Buffer } | null> {
    if (!LOGO_HASH_PATTERN.test(hash)) return null;
    const image = await this.repository.findLogo(hash);
    // The hash is checked again: a stale column never serves another image.
    return image && logoHashOf(image) === hash ? decodeServableLogo(image) : null;
  }

  /**
   * Expired drafts whose wallets still hold BNB, or the token their draft launched: they are
   * kept. Any read that fails keeps every draft (unsure = kept). A wallet funded in the head's
   * block may be read a block late: its draft shows on the next refresh.
   */
  private async holdingMoney(rows: AddressesRow[]): Promise<string[]> {
    if (rows.length === 0) return [];
    if (!this.chain) return rows.map((row) => row.id);
    const addressesOf = (row: AddressesRow) => {
      const config = row.walletConfig as StoredWalletConfig;
      return [row.deployerAddress, config.tipPayer, ...config.wallets.map((w) => w.address)].filter(
        (a): a is Address => Boolean(a),
      );
    };
    const client = this.chain.client;
    try {
      // BNB through the block cache, batched with every poll's and answered from the last
      // block's values while the new block's read is on its way: a list refreshed many times a
      // block reads them once.
      const all = [...new Set(rows.flatMap(addressesOf))];
      const { values } = await recentBnbBalances(this.chain, all);
      const funded = new Set(all.filter((_, i) => (values[i] ?? 0n) > 0n));
      const keep = new Set(
        rows.filter((row) => addressesOf(row).some((a) => funded.has(a))).map((r) => r.id),
      );
      // Tokens: each launched draft's wallets, read for its own token (one read per token).
      const launched = await this.repository.launchTokens(
        rows.filter((row) => !keep.has(row.id)).map((row) => row.id),
      );
      const draftsByToken = new Map<Address, string[]>();
      for (const { draftId, tokenAddress } of launched) {
        const token = getAddress(tokenAddress);
        draftsByToken.set(token, [...(draftsByToken.get(token) ?? []), draftId]);
      }
      await Promise.all(
        [...draftsByToken].map(async ([token, draftIds]) => {
          const owners = rows.filter((row) => draftIds.includes(row.id));
          const addresses = [...new Set(owners.flatMap(addressesOf))];
          const held = await getBalances(client, { addresses, token });
          const holders = new Set(held.filter((b) => b.token > 0n).map((b) => b.address));
          for (const row of owners)
            if (addressesOf(row).some((a) => holders.has(a))) keep.add(row.id);
        }),
      );
      return [...keep];
    } catch {
      return rows.map((row) => row.id);
    }
  }

  async remove(ownerId: string, id: string): Promise<void> {
    const current = await this.owned(ownerId, id);
    if (current.status !== "draft")
      throw new ConflictError(
        current.status === "pending_payment"
          ? "Cancel the payment before deleting this draft"
          : "A paid or launched draft cannot be deleted",
      );
    // Soft delete: the keys stay in the vault, the wallets may still hold money.
    const row = await this.repository.updateIf(id, ownerId, ["draft"], { deletedAt: new Date() });
    if (!row) throw new ConflictError("This draft changed meanwhile, try again");
  }

  async present(row: DraftRow): Promise<Draft> {
    const [draft] = await this.presentMany([row]);
    return draft as Draft;
  }

  /** Rows to the list's shape: no keys, so nothing is decrypted. */
  private async summarize(rows: ListedDraftRow[]): Promise<DraftSummary[]> {
    const [{ payments: paymentRows, refunds }, problems] = await Promise.all([
      this.paymentsAndRefundsOf(rows),
      this.launchProblems(rows),
    ]);
    const paymentsById = new Map(paymentRows.map((p) => [p.id, p]));
    return rows.map((row) =>
      this.withLinks(
        toDraftSummary(
          row,
          row.paymentId ? paymentsById.get(row.paymentId) : undefined,
          refunds.get(row.id) ?? [],
          problems.get(row.id) ?? null,
        ),
      ),
    );
  }

  /** A launched draft's token page on the launchpad, as the wallet manager links it. */
  private withLinks<D extends Pick<Draft, "launch">>(draft: D): D {
    if (!draft.launch) return draft;
    const launchpadUrl = this.chain
      ? tokenPageUrl(this.chain.profile, "launchpad", draft.launch.tokenAddress)
      : null;
    return { ...draft, launch: { ...draft.launch, launchpadUrl } } as D;
  }

  /** Rows to the contract's shape, keys decrypted for their owner. */
  async presentMany(rows: DraftRow[]): Promise<Draft[]> {
    const { payments: paymentRows, refunds } = await this.paymentsAndRefundsOf(rows);
    const paymentsById = new Map(paymentRows.map((p) => [p.id, p]));
    return Promise.all(
      rows.map(async (row) => {
        const keys = await this.vault.forDraft(row.id, ["deployer", "bundle", "tip"]);
        const keyOf = (purpose: KeyPurpose, address: string) =>
          keys.find(
            (k) => k.purpose === purpose && k.address.toLowerCase() === address.toLowerCase(),
          )?.privateKey ?? "";
        const config = row.walletConfig as StoredWalletConfig;
        const payment = row.paymentId ? paymentsById.get(row.paymentId) : undefined;
        const deployerKeyHeld = Boolean(
          row.deployerAddress && keyOf("deployer", row.deployerAddress),
        );
        return this.withLinks(
          toDraft(
            row,
            config,
            keyOf,
            payment,
            refunds.get(row.id) ?? [],
            launchProblemOf(row, deployerKeyHeld),
          ),
        );
      }),
    );
  }
}
