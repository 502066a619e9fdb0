import { buyToken, sellToken } from "@bundler/chain";
import type { AutosellRule } from "@bundler/shared";
import { type Address, createPublicClient, type Hex, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { vi } from "vitest";
import type { TestApp } from "./app.ts";
import { setBalances, tokenBalance } from "./bundles.ts";
import type { TestChain } from "./chain.ts";
import { apiCaller } from "./drafts-api.ts";

/**
 * What the auto-sell tests do with a test chain and an app: the per-block passes run by hand,
 * an outside trader, and rules armed and read through the API. `bed` answers the file's chain,
 * app and user key when called (inside a test).
 */
export const autosellKit = (bed: () => { testChain: TestChain; app: TestApp; key: string }) => {
  const call = apiCaller(
    () => bed().app,
    () => bed().key,
  );
  const client = () => bed().testChain.chain.client;
  const quickClient = () =>
    createPublicClient({ transport: http(bed().testChain.chain.rpcUrl), pollingInterval: 100 });
  const trading = () => {
    const { launchpad, trade } = bed().testChain.chain;
    if (!launchpad || !trade) throw new Error("the test chain trades nowhere");
    return { launchpad, ...trade };
  };

  /**
   * The per-block passes a block runs (the test app watches no blocks): receipts recorded, the
   * ledger appended, the rules read.
   */
  const tick = async (app = bed().app) => {
    await app.transactions?.reconcile();
    await app.pnlLedger?.pass();
    await app.autosellEngine?.pass();
  };

  /** Another account trading the token: buys for `funds`, sells a share of what it holds. */
  const outsider = async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await setBalances(bed().testChain, [[account.address, parseEther("20")]]);
    const blockOf = async (hash: Hex) =>
      (await client().getTransactionReceipt({ hash })).blockNumber;
    return {
      address: account.address,
      buy: async (token: Address, bnb: string) =>
        blockOf(
          (await buyToken(quickClient(), { ...trading(), account, token, funds: parseEther(bnb) }))
            .hash,
        ),
      sellShare: async (token: Address, share: bigint) => {
        const held = await tokenBalance(bed().testChain, token, account.address);
        const amount = ((held * share) / 100n / 10n ** 9n) * 10n ** 9n;
        return blockOf(
          (await sellToken(quickClient(), { ...trading(), account, token, amount })).hashes.at(
            -1,
          ) as Hex,
        );
      },
    };
  };

  const arm = async (
    token: Address,
    rule: Record<string, unknown>,
    as?: string,
  ): Promise<AutosellRule> => {
    const { status, body } = await call(
      "POST",
      "/api/bundle/rules",
      { address: token, ...rule },
      as,
    );
    if (status !== 200) throw new Error(`create rule: ${JSON.stringify(body)}`);
    return body.rule as AutosellRule;
  };
  const rulesOf = async (token: Address, as?: string): Promise<AutosellRule[]> => {
    const { body } = await call("GET", `/api/bundle/rules?address=${token}`, undefined, as);
    return body.rules as AutosellRule[];
  };
  const ruleOf = async (token: Address, id: string, as?: string) =>
    (await rulesOf(token, as)).find((r) => r.id === id) as AutosellRule;

  /** Waits until the rule's firing for `tier` sent every wave. */
  const sentFiring = (token: Address, id: string, tier = 0, as?: string) =>
    vi.waitFor(
      async () => {
        await tick();
        const rule = await ruleOf(token, id, as);
        const firing = rule.firings.find((f) => f.tier === tier);
        if (firing?.state !== "sent")
          throw new Error(
            `firing: ${JSON.stringify(firing)}, reading ${JSON.stringify(rule.reading)}`,
          );
        return { rule, firing };
      },
      { timeout: 30_000, interval: 200 },
    );

  /** Waits for a pass to read the rule at `block` or later. */
  const readAt = (token: Address, id: string, block: bigint, as?: string) =>
    vi.waitFor(
      async () => {
        await tick();
        const rule = await ruleOf(token, id, as);
        if (!rule.reading || BigInt(rule.reading.block) < block)
          throw new Error(`reading: ${JSON.stringify(rule.reading)}`);
        return rule;
      },
      { timeout: 20_000, interval: 100 },
    );

  return { call, client, tick, outsider, arm, rulesOf, ruleOf, sentFiring, readAt };
};
