import type { Draft } from "@bundler/shared";
import { type Address, parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { LOCAL_SLOW_TIP_ADDRESS, LOCAL_TIP_ADDRESS } from "../../lib/local-chain.ts";
import { useLaunchTestbed } from "./launch.test-support.ts";

// Two builders in front of one chain, as a launch meets them on BSC: each gets its own variant
// of the bundle (its own tip at the same nonce), the first to land voids the other.
const ctx = useLaunchTestbed({ slowBuilderMaxTxs: 5, bundleTimeoutMs: 3000 });
const { setBalance, call, captureTerminal, paidDraft } = ctx;

/** A paid, funded two-wallet draft (create, 2 buys and a tip fit both builders' caps). */
const fundedDraft = async () => {
  const { id, input } = await paidDraft(2);
  await setBalance(input.deployerWallet.address, parseEther("1"));
  for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
  return id;
};

/** Launches draft `id`; answers its status and the terminal's lines. */
const launch = async (id: string) => {
  const lines = await captureTerminal(async () => {
    expect((await call("POST", `/api/draft/${id}/execute`)).status).toBe(200);
    await ctx.app.launches.idle();
  });
  const draft = (await call("GET", `/api/draft/${id}`)).body.draft as Draft;
  return { draft, lines };
};

const tipsPaid = async () => {
  // The losing variant can land no later than its window: mine past it first.
  for (let i = 0; i < 6; i++) await ctx.testChain.mine();
  return Promise.all(
    [LOCAL_TIP_ADDRESS, LOCAL_SLOW_TIP_ADDRESS].map((address: Address) =>
      ctx.chain.client.getBalance({ address }),
    ),
  );
};

describe("a launch sent to two builders", () => {
  it("lands once, through one builder, and the other builder's variant never lands", async () => {
    const [fastBefore, slowBefore] = await tipsPaid();
    const { draft, lines } = await launch(await fundedDraft());
    expect(draft.status, lines.join("\n")).toBe("executed");
    const [fast, slow] = await tipsPaid();
    // Exactly one tip was paid: the first builder answers first and its variant lands.
    expect([(fast ?? 0n) - (fastBefore ?? 0n), (slow ?? 0n) - (slowBefore ?? 0n)]).toEqual([
      parseEther("0.001"),
      0n,
    ]);
  });

  it("lands through the second builder when the first refuses", async () => {
    const [fastBefore, slowBefore] = await tipsPaid();
    await ctx.testChain.faults({ refuseBundles: { times: 1, message: "bundle rejected: busy" } });
    const { draft, lines } = await launch(await fundedDraft());
    expect(draft.status, lines.join("\n")).toBe("executed");
    const [fast, slow] = await tipsPaid();
    expect([(fast ?? 0n) - (fastBefore ?? 0n), (slow ?? 0n) - (slowBefore ?? 0n)]).toEqual([
      0n,
      parseEther("0.001"),
    ]);
  });

  it("lands through the first builder when the second goes silent", async () => {
    await ctx.testChain.faults({ silentBundles: 1 }, "local-slow");
    const { draft, lines } = await launch(await fundedDraft());
    expect(draft.status, lines.join("\n")).toBe("executed");
  });

  it("fails with each builder's words when both refuse, and keeps the draft paid", async () => {
    await ctx.testChain.faults({ refuseBundles: { times: 1, message: "bundle rejected: busy" } });
    await ctx.testChain.faults(
      { refuseBundles: { times: 1, message: "bundle rejected: tip too low for this slot" } },
      "local-slow",
    );
    const { draft, lines } = await launch(await fundedDraft());
    const failed = lines.find((line) => line.startsWith("FAILED launch:")) ?? lines.join("\n");
    expect(failed).toContain("builder local refused: bundle rejected: busy;");
    expect(failed).toContain(
      "builder local-slow refused: bundle rejected: tip too low for this slot",
    );
    expect(draft.status).toBe("paid");
  });
});
