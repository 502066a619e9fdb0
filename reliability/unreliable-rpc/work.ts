import { type Address, erc20Abi } from "viem";
import { salesBy } from "../crashes/autosell-work.ts";
import type { Server, Shared, Work } from "../crashes/work.ts";

/**
 * One sell request asked again and again: a wallet of the shared token sells 50% under one
 * requestId; the request the kill may cut off is asked again after the restart, again at each
 * look until its sale landed, and twice more once it did. Any second sale of the wallet is a
 * double sale (50% more of what was left), none a missing one.
 */
export const prepareRepeatedSell = (
  server: Server,
  shared: Shared,
  treasury: Address,
  trial: number,
): Work => {
  const token = shared.token;
  const wallet = shared.holders?.shift();
  if (!token || !wallet) throw new Error("a repeated sell needs a launched token's wallet");
  const requestId = `unreliable-rpc-${Date.now()}-${trial}`;
  let fromBlock: bigint | undefined;
  let asks = 0;
  let lastAsk = 0;
  /** Each answer's status, and the first words of each kind of refusal. */
  const answers = new Map<number, number>();
  const refusals = new Map<number, string>();
  let lastAnswer = "";
  const ask = async () => {
    asks += 1;
    lastAsk = Date.now();
    const answer = await server
      .api("POST", "/api/bundle/wallets/sell", {
        address: token,
        wallets: [wallet],
        amount: "50",
        isPercentage: true,
        requestId,
      })
      .catch(() => ({ status: 0, body: {} }));
    answers.set(answer.status, (answers.get(answer.status) ?? 0) + 1);
    if (answer.status === 200) lastAnswer = JSON.stringify(answer.body).slice(0, 600);
    if (answer.status !== 200 && !refusals.has(answer.status)) {
      // A 500 is the server's own failure: what it logged goes beside the answer (its log
      // lines reach us a moment after the answer does).
      if (answer.status >= 500) await new Promise((resolve) => setTimeout(resolve, 500));
      const logged =
        answer.status >= 500
          ? server.process
              .printed()
              .split("\n")
              .filter((line) => /error|fail/i.test(line))
              .slice(-3)
              .join(" / ")
              .slice(0, 1500)
          : "";
      refusals.set(answer.status, `${JSON.stringify(answer.body).slice(0, 200)} ${logged}`);
    }
    return answer;
  };
  const asked = () =>
    `asked ${asks} times (${[...answers].map(([status, n]) => `${status} ×${n}`).join(", ")})${[
      ...refusals,
    ]
      .map(([status, body]) => `; ${status}: ${body}`)
      .join("")}; the last 200: ${lastAnswer}`;
  const sales = async () => salesBy(server, token, wallet, fromBlock ?? 0n);
  const settled = async () => {
    const client = server.client();
    const mined = await client.getTransactionCount({ address: wallet });
    const sent = await client.getTransactionCount({ address: wallet, blockTag: "pending" });
    return mined === sent;
  };
  return {
    declared: [wallet, treasury],
    failpoints: ["tx.recorded", "sell.submitted"],
    start: async () => {
      fromBlock ??= await server.client().getBlockNumber();
      return ask();
    },
    finished: async () => {
      if ((await sales()) === 0 || !(await settled())) {
        // Not landed (yet): the client asks again every few seconds, as a user clicks again.
        if (Date.now() - lastAsk > 3000) await ask().catch(() => {});
        return false;
      }
      // Landed: asked twice more, then given three blocks for anything it sent to land.
      await ask();
      await ask();
      const landedAt = await server.client().getBlockNumber();
      while ((await server.client().getBlockNumber()) < landedAt + 3n)
        await new Promise((resolve) => setTimeout(resolve, 250));
      return settled();
    },
    state: async () =>
      `${server.process.printed().split("\n").slice(-12).join("\n      ")}\n      ` +
      `${await sales()} sales, ${asked()}; the wallet holds ${await server.client().readContract({
        address: token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [wallet],
      })}`,
    declaredAfter: async () => [],
    async check() {
      const sold = await sales();
      return {
        doubleCredits: 0,
        repeated: 0,
        missing: sold === 0 ? 1 : 0,
        doubleSales: Math.max(0, sold - 1),
        missedFirings: 0,
        notes: sold === 1 ? [asked()] : [`${wallet} sold ${sold} times; ${asked()}`],
      };
    },
  };
};
