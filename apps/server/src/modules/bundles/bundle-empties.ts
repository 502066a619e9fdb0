import { prepareEmpties } from "@bundler/chain";
import { type Address, formatEther, getAddress } from "viem";
import { BadRequestError } from "../../lib/errors.ts";
import type { KeyPurpose } from "../../lib/key-vault.ts";
import { isFinal, type TxRow } from "../transactions/transactions.repository.ts";
import type { TxIntent } from "../transactions/tx-manager.ts";
import { type TradeTarget, WalletTxs } from "./wallet-txs.ts";

/** How long an empty waits for its transfers to be mined before answering what it knows. */
const EMPTY_WAIT_MS = 30_000;

export interface EmptyOutcome {
  wallet: Address;
  success: boolean;
  hash: string | null;
  amount: string;
  error: string | null;
}

/**
 * The wallet manager's empties: every wallet's BNB minus the exact gas, through the transaction
 * manager under a key per wallet and request (a double click answers the first's transfers).
 */
export class BundleEmpties {
  constructor(private readonly txs: WalletTxs) {}

  /**
   * Every wallet's BNB minus the exact gas to `receiver`, then waits (up to 30 s) for the
   * transfers to be mined: success means the wallet holds 0 wei now.
   */
  async empty(
    ownerId: string,
    bundle: TradeTarget,
    wallets: Address[],
    receiver: Address,
    requestId: string | undefined,
    purpose: KeyPurpose = "bundle",
  ): Promise<EmptyOutcome[]> {
    const { chain, txm } = this.txs.trading();
    const to = getAddress(receiver);
    if (wallets.some((w) => w.toLowerCase() === to.toLowerCase()))
      throw new BadRequestError("The receiver cannot be one of the wallets being emptied");
    const token = bundle.tokenAddress.toLowerCase();
    const { tags, nonces } = await this.txs.tags(wallets, requestId, to.toLowerCase());
    const keyOf = (address: Address) =>
      `bundle-empty:${ownerId}:${token}:${address.toLowerCase()}:${tags.get(address)}`;
    const fail = (wallet: Address, error: string): EmptyOutcome => ({
      wallet,
      success: false,
      hash: null,
      amount: "0",
      error,
    });

    const earlier = new Set((await txm.find(wallets.map(keyOf))).map((row) => row.key));
    const outcomes = new Map<Address, EmptyOutcome>();
    const toEmpty = wallets.filter((w) => !earlier.has(keyOf(w)) && !outcomes.has(w));
    const intents: TxIntent[] = [];
    if (toEmpty.length > 0) {
      const [prepared, accounts] = await Promise.all([
        txm
          .gasPrice()
          .then((gasPrice) => prepareEmpties(chain.client, { from: toEmpty, to, gasPrice })),
        this.txs.accounts(bundle, purpose, toEmpty),
      ]);
      for (const empty of prepared) {
        const account = accounts.get(empty.from.toLowerCase());
        if ("error" in empty) outcomes.set(empty.from, fail(empty.from, empty.error.shortMessage));
        else if (!account)
          outcomes.set(empty.from, fail(empty.from, `the key of wallet ${empty.from} is missing`));
        else
          intents.push({
            key: keyOf(empty.from),
            purpose: "bundle-empty",
            ownerId,
            subject: token,
            account,
            ...empty.request,
            gas: empty.gas,
            gasPrice: empty.gasPrice,
            reason: `empty to ${to}`,
          });
      }
      const { busy } = await txm.sendUnlessBusy(intents, {
        ownKeys: new Set(wallets.map(keyOf)),
        minedNonces: nonces,
      });
      for (const [wallet, row] of busy)
        outcomes.set(wallet, fail(wallet, WalletTxs.busyError(wallet, row)));
    }
    const keys = [
      ...earlier,
      ...intents.filter((i) => !outcomes.has(getAddress(i.account.address))).map((i) => i.key),
    ];
    const rows = new Map(
      (
        await txm
          .waitFinal(keys, { pollMs: 250, timeoutMs: EMPTY_WAIT_MS })
          .catch(() => txm.find(keys))
      ).map((row) => [row.key, row]),
    );
    // The balances the caller asks next must not be served from before these transfers.
    for (const row of rows.values())
      if (row.blockNumber !== null) chain.reads.observe(row.blockNumber);
    return wallets.map((wallet) => {
      const row = rows.get(keyOf(wallet));
      if (!row) return outcomes.get(wallet) ?? fail(wallet, "nothing was sent");
      return {
        wallet,
        success: row.status === "mined",
        hash: row.txHash,
        amount: formatEther(BigInt(row.value)),
        error: emptyError(row),
      };
    });
  }
}

/** Why an empty's transfer did not (yet) empty the wallet; null once mined. */
const emptyError = (row: TxRow): string | null => {
  if (row.status === "mined") return null;
  if (!isFinal(row.status))
    return `sent but not mined yet (${row.txHash}): check its status before emptying again`;
  return `the transfer was ${row.status}: ${row.error ?? "no reason given"}`;
};
