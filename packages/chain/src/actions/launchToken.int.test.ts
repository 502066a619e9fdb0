import { LaunchpadHelperArtifact, LaunchpadManagerArtifact } from "@bundler/contracts";
import { type Address, decodeFunctionData, encodeFunctionData, keccak256, parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { DEFAULT_FEE, TIP, useLaunchTokenTestbed } from "./launchToken.test-support.ts";
import { launchToken } from "./launchToken.ts";
import { simulateLaunch } from "./simulateLaunch.ts";

const ctx = useLaunchTokenTestbed();
const { setBalance, builder, recording, setTradingFee, setLaunchFee, prepare, balanceOf } = ctx;

describe("launchToken", () => {
  it("lands create, 50 buys and the tip in one block, in order, each wallet holding its quote", async () => {
    const params = await prepare(50, (i) => parseEther("0.01") + BigInt(i) * parseEther("0.001"));
    const tipBefore = await ctx.client.getBalance({ address: TIP });
    const report = await launchToken({ ...params, builders: [await builder(60)] });
    expect(report.bundles).toHaveLength(1);
    const [bundle] = report.bundles;
    expect(bundle?.status).toBe("included");
    const block = await ctx.client.getBlock({
      blockNumber: bundle?.status === "included" ? bundle.blockNumber : 0n,
    });
    expect(block.transactions).toHaveLength(52);
    const txs = await Promise.all(
      block.transactions.map((hash) => ctx.client.getTransaction({ hash })),
    );
    expect(txs.map((tx) => tx.from.toLowerCase())).toEqual(
      [
        params.creator.address,
        ...params.buyers.map((b) => b.account.address),
        params.tipPayer.address,
      ].map((a: string) => a.toLowerCase()),
    );
    for (const { address, amount } of report.quoted)
      expect(await balanceOf(report.token, address)).toBe(amount);
    expect(await ctx.client.getBalance({ address: TIP })).toBe(tipBefore + parseEther("0.001"));
    expect(report.atomicWithCreate).toHaveLength(50);
  });

  it("buys its own token when another launch lands between its simulation and its bundle", async () => {
    const dev = await builder(60);
    const first = await prepare(2, () => parseEther("0.01"));
    const second = await prepare(2, () => parseEther("0.01"));
    let firstToken: Address | null = null;
    const report = await launchToken({
      ...second,
      builders: [dev],
      onStep: async (message) => {
        // The second launch is simulated and signed for the address it was given; the first
        // lands before its bundle goes out.
        if (message.startsWith("PASSED simulation"))
          firstToken = (await launchToken({ ...first, builders: [dev] })).token;
      },
    });
    expect(firstToken).not.toBeNull();
    expect(report.token).not.toBe(firstToken);
    for (const { address, amount } of report.quoted)
      expect(await balanceOf(report.token, address)).toBe(amount);
    for (const buyer of second.buyers)
      expect(await balanceOf(firstToken as unknown as Address, buyer.account.address)).toBe(0n);
  });

  it("prices the buys with the launchpad's own fee plan, not a copy of the curve", async () => {
    // 3% and a 0.002 BNB minimum: a TypeScript copy of the 1% curve would over-quote every
    // buy, and with no slippage allowed each one would revert.
    await setTradingFee(300n, parseEther("0.002"));
    try {
      const params = await prepare(5, (i) => parseEther("0.05") + BigInt(i) * parseEther("0.01"));
      const report = await launchToken({
        ...params,
        slippageBps: 0n,
        builders: [await builder(50)],
      });
      expect(report.bundles.map((b) => b.status)).toEqual(["included"]);
      for (const { address, amount } of report.quoted) {
        expect(amount).toBeGreaterThan(0n);
        expect(await balanceOf(report.token, address)).toBe(amount);
      }
    } finally {
      await setTradingFee(...DEFAULT_FEE);
    }
  });

  it("splits 80 wallets over bundles of 50 and says which buys shared the create's block", async () => {
    const params = await prepare(80, () => parseEther("0.01"));
    const report = await launchToken({ ...params, builders: [await builder(50)] });
    expect(report.bundles.map((b) => [b.status, b.buyers.length, b.sentTo])).toEqual([
      ["included", 48, ["dev"]],
      ["included", 32, ["dev"]],
    ]);
    expect(report.atomicWithCreate).toEqual(
      params.buyers.slice(0, 48).map((b) => b.account.address),
    );
    const [first, second] = report.bundles;
    if (first?.status !== "included" || second?.status !== "included")
      throw new Error("not included");
    expect(second.blockNumber).toBeGreaterThan(first.blockNumber);
    for (const { address, amount } of report.quoted)
      expect(await balanceOf(report.token, address)).toBe(amount);
  });

  it("lands the bundles after a refused one, with fresh nonces, and reports each honestly", async () => {
    // Cap 5: the create + 3 buys, then 4 + 4 + 1 buys; the deployer pays every tip.
    const params = await prepare(12, () => parseEther("0.01"));
    const victim = params.buyers[4];
    if (!victim) throw new Error("no victim");
    const report = await launchToken({
      ...params,
      tipPayer: params.creator,
      builders: [await builder(5)],
      onStep: async (message) => {
        // Bundle 2's wallet is emptied after the checks, just before the bundle goes out.
        if (message.startsWith("Sending bundle 2/")) await setBalance(victim.account.address, 0n);
      },
    });
    expect(report.bundles.map((b) => [b.status, b.buyers.length])).toEqual([
      ["included", 3],
      ["failed", 4],
      ["included", 4],
      ["included", 1],
    ]);
    const failed = report.bundles[1];
    if (failed?.status !== "failed") throw new Error("bundle 2 did not fail");
    expect(failed.reason).toMatch(
      new RegExp(`^builder dev refused: the buy by wallet ${victim.account.address} was refused: `),
    );
    expect(failed.refusals).toMatchObject([{ builder: "dev", transaction: { index: 1 } }]);
    for (const [i, buyer] of params.buyers.entries()) {
      const held = await balanceOf(report.token, buyer.account.address);
      if (i >= 3 && i < 7) expect(held).toBe(0n);
      else expect(held).toBe(report.quoted[i + 1]?.amount);
    }
    // The create and three tips: bundle 2's tip nonce was handed to bundle 3.
    expect(await ctx.client.getTransactionCount({ address: params.creator.address })).toBe(4);
  });

  it("lands one bundle when two builders race for it, voids the other's tip and names the winner", async () => {
    const params = await prepare(3, () => parseEther("0.01"));
    const tips: Address[] = [
      "0x000000000000000000000000000000000000a001",
      "0x000000000000000000000000000000000000a002",
    ];
    const turn = { queue: Promise.resolve() as Promise<unknown> };
    const racers = [
      await recording(await builder(50, "alpha", tips[0]), turn),
      await recording(await builder(50, "beta", tips[1]), turn),
    ];
    const report = await launchToken({ ...params, builders: racers.map((r) => r.endpoint) });
    const [bundle] = report.bundles;
    if (bundle?.status !== "included") throw new Error("not included");
    expect(bundle.sentTo).toEqual(["alpha", "beta"]);
    const winner = racers.findIndex((r) => r.endpoint.name === bundle.builder);
    const loser = racers[1 - winner];
    if (winner < 0 || !loser) throw new Error(`no winner: ${bundle.builder}`);
    const block = await ctx.client.getBlock({ blockNumber: bundle.blockNumber });
    expect(block.transactions).toHaveLength(5);
    expect(bundle.refusals).toMatchObject([{ builder: loser.endpoint.name }]);

    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await ctx.client.getBalance({ address: tips[winner] as Address })).toBe(params.tip);
    expect(await ctx.client.getBalance({ address: tips[1 - winner] as Address })).toBe(0n);
    const loserTip = keccak256(loser.bundles[0]?.at(-1) ?? "0x");
    await expect(ctx.client.getTransactionReceipt({ hash: loserTip })).rejects.toThrow();
    // The winner's tip used the nonce both tips shared: the loser's can never land.
    expect(await ctx.client.getTransactionCount({ address: params.tipPayer.address })).toBe(1);
    for (const { address, amount } of report.quoted)
      expect(await balanceOf(report.token, address)).toBe(amount);
  });

  it("lets the deployer pay the tip, with its nonces in execution order", async () => {
    const params = await prepare(3, () => parseEther("0.01"));
    const report = await launchToken({
      ...params,
      tipPayer: params.creator,
      builders: [await builder(50)],
    });
    expect(report.bundles).toMatchObject([{ status: "included" }]);
    expect(await ctx.client.getTransactionCount({ address: params.creator.address })).toBe(2);
  });
});

describe("launchToken against four.meme's create and trade guides", () => {
  const createOf = async (report: { bundles: Array<{ status: string }> }, creator: Address) => {
    const [first] = report.bundles as Array<{ status: string; blockNumber?: bigint }>;
    const block = await ctx.client.getBlock({
      blockNumber: first?.blockNumber ?? 0n,
      includeTransactions: true,
    });
    const create = block.transactions.find((tx) => tx.from.toLowerCase() === creator.toLowerCase());
    if (!create) throw new Error("no create in the launch's block");
    return create;
  };
  const read = (functionName: "_launchFee" | "_tradingFeeRate") =>
    ctx.client.readContract({
      address: ctx.contracts.launchpad,
      abi: LaunchpadManagerArtifact.abi,
      functionName,
    });

  it("create: sends exactly _launchFee() + preSale + preSale × _tradingFeeRate() / 10000 as the launchpad says them when it launches (create-guide §4, four-meme-ai create-token-api.ts)", async () => {
    await setLaunchFee(parseEther("0.023"));
    await setTradingFee(250n, parseEther("0.0001"));
    try {
      const params = await prepare(2, () => parseEther("0.01"));
      const before = await ctx.client.getBalance({ address: params.creator.address });
      const report = await launchToken({ ...params, builders: [await builder(50)] });
      const create = await createOf(report, params.creator.address);
      const launchFee = await read("_launchFee");
      const rate = await read("_tradingFeeRate");
      expect([launchFee, rate]).toEqual([parseEther("0.023"), 250n]);
      expect(create.value).toBe(launchFee + params.preSale + (params.preSale * rate) / 10_000n);
      expect(report.createValue).toBe(create.value);
      const receipt = await ctx.client.getTransactionReceipt({ hash: create.hash });
      expect(before - (await ctx.client.getBalance({ address: params.creator.address }))).toBe(
        create.value + receipt.gasUsed * receipt.effectiveGasPrice,
      );
    } finally {
      await setLaunchFee(parseEther("0.01"));
      await setTradingFee(...DEFAULT_FEE);
    }
  });

  it("create: warns when four.meme's listed creation fee differs from the launchpad's, and sends the launchpad's (create-guide §4 note 1)", async () => {
    const params = await prepare(1, () => parseEther("0.01"));
    const steps: string[] = [];
    const report = await launchToken({
      ...params,
      listedLaunchFee: 0n,
      builders: [await builder(50)],
      onStep: (message) => {
        steps.push(message);
      },
    });
    expect(steps).toContain(
      "WARNING four.meme's config lists a 0 BNB creation fee but the launchpad asks 0.01 BNB: the create sends what the launchpad asks",
    );
    expect((await createOf(report, params.creator.address)).value).toBe(
      parseEther("0.01") + parseEther("0.1") + parseEther("0.001"),
    );
  });

  it("buys: each buy is priced with the helper's tryBuy(token, 0, funds) and sends its amountMsgValue as value and amountFunds as funds (trade-guide §2.2)", async () => {
    const params = await prepare(3, (i) => parseEther("0.02") + BigInt(i) * parseEther("0.01"));
    const simulated = await simulateLaunch(ctx.client, {
      launchpad: params.launchpad,
      helper: params.helper,
      create: {
        from: params.creator.address,
        value: parseEther("0.111"),
        data: encodeCreate(params.createArg, params.signature),
      },
      buys: params.buyers.map((b) => ({ from: b.account.address, funds: b.funds })),
    });
    expect(simulated.buys.map((b) => [b.msgValue, b.funds])).toEqual(
      params.buyers.map((b) => [b.funds, b.funds]),
    );
    const report = await launchToken({ ...params, builders: [await builder(50)] });
    const [first] = report.bundles;
    const block = await ctx.client.getBlock({
      blockNumber: first?.status === "included" ? first.blockNumber : 0n,
      includeTransactions: true,
    });
    const buys = block.transactions.filter((tx) =>
      params.buyers.some((b) => b.account.address.toLowerCase() === tx.from.toLowerCase()),
    );
    expect(buys).toHaveLength(3);
    for (const [i, tx] of buys.entries()) {
      const call = decodeFunctionData({ abi: LaunchpadManagerArtifact.abi, data: tx.input });
      expect(call.functionName).toBe("buyTokenAMAP");
      expect([tx.value, call.args?.[1]]).toEqual([
        simulated.buys[i]?.msgValue,
        simulated.buys[i]?.funds,
      ]);
    }
    // The helper agrees once the token exists: its quote for the first buy's funds asks that much.
    const [, , , , , msgValue, , amountFunds] = await ctx.client.readContract({
      address: params.helper,
      abi: LaunchpadHelperArtifact.abi,
      functionName: "tryBuy",
      args: [report.token, 0n, parseEther("0.02")],
    });
    expect([msgValue, amountFunds]).toEqual([parseEther("0.02"), parseEther("0.02")]);
  });
});

const encodeCreate = (args: `0x${string}`, signature: `0x${string}`) =>
  encodeFunctionData({
    abi: LaunchpadManagerArtifact.abi,
    functionName: "createToken",
    args: [args, signature],
  });
