import { readFileSync } from "node:fs";
import path from "node:path";
import { getTokenInfo, prepareBuy } from "@bundler/chain";
import { LaunchpadManagerArtifact } from "@bundler/contracts";
import {
  type Address,
  createPublicClient,
  erc20Abi,
  formatEther,
  http,
  parseEther,
  parseEventLogs,
  TransactionReceiptNotFoundError,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { sendPreparedBuy } from "../../apps/server/src/test/bundles.ts";
import type { Server, Shared, Work } from "./work.ts";

interface Contracts {
  launchpad: Address;
  helper: Address;
  router: Address;
  weth: Address;
}

/** The local chain's contracts, as the server deployed them. */
export const contractsOf = (server: Server): Contracts =>
  JSON.parse(readFileSync(path.join(server.dataDir, "chain", "deployment.json"), "utf8")).contracts;

/** A client of the server's chain, straight (it moves to a new port at every start). */
const chainOf = (server: Server) =>
  createPublicClient({ transport: http(server.url()), pollingInterval: 100 });

/** How many times `wallet` sold `token` on the launchpad since `fromBlock` (its TokenSale events). */
export const salesBy = async (
  server: Server,
  token: Address,
  wallet: Address,
  fromBlock: bigint,
): Promise<number> => {
  const logs = await chainOf(server).getLogs({ address: contractsOf(server).launchpad, fromBlock });
  return parseEventLogs({ abi: LaunchpadManagerArtifact.abi, logs, eventName: "TokenSale" }).filter(
    (e) => {
      const args = e.args as { token: Address; account: Address };
      return (
        args.token.toLowerCase() === token.toLowerCase() &&
        args.account.toLowerCase() === wallet.toLowerCase()
      );
    },
  ).length;
};

/** An outside account (fresh, funded) buys `token` for `funds`; answers the buy's block. */
export const outsideBuy = async (server: Server, token: Address, funds: bigint) => {
  const buyer = privateKeyToAccount(generatePrivateKey());
  await server.setBalance(buyer.address, funds + parseEther("0.1"));
  const client = chainOf(server);
  const prepared = await prepareBuy(client, {
    account: buyer,
    ...contractsOf(server),
    token,
    funds,
  });
  const hash = await sendPreparedBuy(client, buyer, prepared);
  return (await client.waitForTransactionReceipt({ hash, pollingInterval: 100 })).blockNumber;
};

interface Rule {
  state: string;
  firings: Array<{ tier: number; state: string; transactions: string[] }>;
}

/**
 * An auto-sell firing: a rule on the last launched token sells all of one of its wallets once
 * the market cap passes 5% over today's, and an outside account's buy (the request a kill may
 * cut off) passes it. The server dies before the buy, between the rule's decision and its sale
 * (autosell.decided, autosell.wave), once the sale is recorded (tx.recorded), or at a random
 * moment; after the restart the wallet must have sold once: a second sale is a double sale, no
 * sale (or no firing) a missed firing. With `sinceLaunch`, the rule is a sniper guard as well:
 * it fires only once outside buys since the launch are read too, which on a token launched more
 * blocks ago than a node serves in one `eth_getLogs` takes reads in ranges.
 */
export const prepareAutosell = async (
  server: Server,
  shared: Shared,
  treasury: Address,
  { sinceLaunch = false }: { sinceLaunch?: boolean } = {},
): Promise<Work> => {
  const token = shared.token;
  const wallet = shared.holders?.shift();
  if (!token || !wallet) throw new Error("an auto-sell trial needs a launch trial before it");
  const contracts = contractsOf(server);
  // The chain moves to a new port at every start: a client of the current one each time.
  const client = () => chainOf(server);
  const capNow = async () =>
    (await getTokenInfo(client(), { helper: contracts.helper, token })).lastPrice * 1_000_000_000n;
  const target = ((await capNow()) * 105n) / 100n;
  const created = await server.api("POST", "/api/bundle/rules", {
    address: token,
    trigger: {
      [sinceLaunch ? "all" : "any"]: [
        { type: "marketCap", atLeast: formatEther(target), unit: "BNB" },
        ...(sinceLaunch ? [{ type: "outsideBuys", atLeastBnb: "0.01" }] : []),
      ],
    },
    action: { percent: 100, wallets: [wallet] },
  });
  const id = (created.body.rule as { id?: string } | undefined)?.id;
  if (!id) throw new Error(`auto-sell rule: ${JSON.stringify(created.body)}`);
  const buyer = privateKeyToAccount(generatePrivateKey());
  await server.setBalance(buyer.address, parseEther("2"));
  const fromBlock = await client().getBlockNumber();
  const ruleOf = async () =>
    (
      (await server.api("GET", `/api/bundle/rules?address=${token}`)).body.rules as Array<
        Rule & { id: string }
      >
    ).find((r) => r.id === id) as Rule;
  const held = () =>
    client().readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [wallet],
    });
  return {
    declared: [wallet, buyer.address, treasury],
    failpoints: ["autosell.decided", "autosell.wave", "tx.recorded"],
    // Sent again after a kill that cut it off: a buy that landed is not bought again.
    start: async () => {
      if ((await capNow()) >= target) return { status: 200 };
      const prepared = await prepareBuy(client(), {
        account: buyer,
        ...contracts,
        token,
        funds: parseEther("0.5"),
      });
      const hash = await sendPreparedBuy(client(), buyer, prepared);
      // The server may die at the firing this buy causes, its chain with it, before the
      // receipt is read: a chain that stops answering cut the request off.
      for (;;) {
        const receipt = await client()
          .getTransactionReceipt({ hash })
          .catch((error: Error) =>
            error instanceof TransactionReceiptNotFoundError ? null : false,
          );
        if (receipt === false) return { status: 0 };
        if (receipt) return { status: receipt.status === "success" ? 200 : 500 };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    finished: async () => {
      const firing = (await ruleOf()).firings[0];
      if (firing?.state !== "sent" || (await held()) !== 0n) return false;
      const mined = await client().getTransactionCount({ address: wallet });
      const sent = await client().getTransactionCount({ address: wallet, blockTag: "pending" });
      return mined === sent;
    },
    state: async () => JSON.stringify((await ruleOf()).firings).slice(0, 1200),
    declaredAfter: async () => [],
    async check() {
      const sales = await salesBy(server, token, wallet, fromBlock);
      const rule = await ruleOf();
      const firings = rule.firings.length;
      const notes = [
        ...(sales === 1 ? [] : [`${wallet} sold ${sales} times`]),
        ...(firings === 1 ? [] : [`the rule fired ${firings} times (${rule.state})`]),
      ];
      return {
        doubleCredits: 0,
        repeated: 0,
        missing: 0,
        doubleSales: Math.max(0, sales - 1) + Math.max(0, firings - 1),
        missedFirings: sales === 0 || firings === 0 ? 1 : 0,
        notes,
      };
    },
  };
};
