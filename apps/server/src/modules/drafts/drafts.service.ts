import { addressOfKey, getBalances } from "@bundler/chain";
import {
  DRAFTS_PAGE_SIZE,
  type Draft,
  type DraftSummary,
  draftInputSchema,
  launchReadinessError,
  QUOTAS,
  type TokenInfo,
} from "@bundler/shared";
import { type Address, getAddress, type Hex } from "viem";
import type { z } from "zod";
import type { ChainContext } from "../../lib/chain-context.ts";
import { BadRequestError, ConflictError, NotFoundError } from "../../lib/errors.ts";
import { type KeyPurpose, type KeyVault, normalizePrivateKey } from "../../lib/key-vault.ts";
import { lockUser } from "../../lib/quota.ts";
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

/** A draft expires this long after its last update, unless its wallets hold money. */
export const DRAFT_LIFETIME_MS = 30 * 24 * 3600 * 1000;

export type ParsedDraftInput = z.output<typeof draftInputSchema>;

export type { StoredWalletConfig };

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

  /** Splits input into what the row holds and the keys the vault holds; checks every key. */
  private split(input: ParsedDraftInput) {
    const keys: Array<{ privateKey: Hex; purpose: KeyPurpose }> = [];
    const keyed = (
      wallet: { address: string; privateKey: string },
      purpose: KeyPurpose,
      label: string,
    ) => {
      let privateKey: Hex;
      try {
        privateKey = normalizePrivateKey(wallet.privateKey);
      } catch {
        throw new BadRequestError(`Invalid ${label} private key`);
      }
      const address = addressOfKey(privateKey);
      if (address.toLowerCase() !== wallet.address.toLowerCase())
        throw new BadRequestError(
          `The ${label} address ${wallet.address} does not match its private key`,
        );
      keys.push({ privateKey, purpose });
      return address;
    };
    const deployerAddress = input.deployerWallet
      ? keyed(input.deployerWallet, "deployer", "deployer")
      : null;
    const config = input.walletConfig ?? draftInputSchema.shape.walletConfig.unwrap().parse({});
    const seen = new Set<string>();
    const wallets = config.wallets.map((wallet) => {
      const address = keyed(wallet, "bundle", "wallet");
      if (seen.has(address)) throw new BadRequestError(`Wallet ${address} is listed twice`);
      seen.add(address);
      return {
        address,
        buyValue: wallet.buyValue,
        ...(wallet.tokenAmount !== undefined ? { tokenAmount: wallet.tokenAmount } : {}),
      };
    });
    const tipPayer = config.tipPayer ? keyed(config.tipPayer, "tip", "tip payer") : undefined;
    if (config.delaySnipeAddress && !seen.has(getAddress(config.delaySnipeAddress)))
      throw new BadRequestError("Address must be one of the imported wallet addresses");
    const stored: StoredWalletConfig = { ...config, wallets, tipPayer };
    if (!tipPayer) delete stored.tipPayer;
    return { deployerAddress, walletConfig: stored, keys };
  }

  async create(ownerId: string, input: ParsedDraftInput): Promise<Draft> {
    const { deployerAddress, walletConfig, keys } = this.split(input);
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
    const { deployerAddress, walletConfig, keys } = this.split(input);
    const existing = await this.vault.forDraft(id, ["deployer", "bundle", "tip"]);
    const known = new Set(existing.map((k) => `${k.purpose}:${k.address.toLowerCase()}`));
    const fresh = keys.filter(
      (k) => !known.has(`${k.purpose}:${addressOfKey(k.privateKey).toLowerCase()}`),
    );
    // The fresh keys and the row that names them commit together, or neither does.
    const row = await this.repository.transaction(async (tx) => {
      await this.vault.store(fresh, { ownerId, draftId: id }, tx);
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
      if (row) return row;
      const now = await this.repository.findOwned(id, ownerId, tx);
      if (!now) throw draftNotFound();
      throw new ConflictError(LOCKED[now.status] ?? "This draft changed meanwhile, try again");
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
   * kept. Any read that fails keeps every draft (unsure = kept).
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
      const all = [...new Set(rows.flatMap(addressesOf))];
      const balances = await getBalances(client, { addresses: all });
      const funded = new Set(balances.filter((b) => b.bnb > 0n).map((b) => b.address));
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
      toDraftSummary(
        row,
        row.paymentId ? paymentsById.get(row.paymentId) : undefined,
        refunds.get(row.id) ?? [],
        problems.get(row.id) ?? null,
      ),
    );
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
        return toDraft(
          row,
          config,
          keyOf,
          payment,
          refunds.get(row.id) ?? [],
          launchProblemOf(row, deployerKeyHeld),
        );
      }),
    );
  }
}
