import { type Bumper, type BumperWallet, bumperUnsoldText } from "@bundler/shared";
import { sql } from "drizzle-orm";
import { type Address, createWalletClient, erc20Abi, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { graduate, tokenBalance } from "../../test/bundles.ts";
import { sleep, useBumperTestbed } from "./bumper.test-support.ts";

// A withdrawal: what it sells (privately, with a floor) and what it sends to the receiver.
const { bed, call, setBalance, balanceOf, launch, generate, bumpUntil } = useBumperTestbed(
  Buffer.alloc(32, 42),
);

describe("withdrawing", () => {
  it("withdraws from the wallet a bump on its way moved the BNB to, not only from the wallets there were when asked", async () => {
    const bundle = await launch();
    const bumper = (await generate(bundle.token, { duration: 10 })).body.bumper as Bumper;
    await setBalance(bumper.address as Address, parseEther("0.1"));
    await call("POST", `/api/bumper/${bumper.id}/start`);
    const trading = async () => {
      const { rows } = await bed.app.database.db.execute(
        sql`select count(*)::int as n from bumps where bumper_id = ${bumper.id} and status = 'trading'`,
      );
      return (rows[0] as { n: number }).n > 0;
    };
    for (let i = 0; i < 100 && !(await trading()); i++) {
      await bed.app.bumperEngine?.tick();
      if (!(await trading())) await sleep(100);
    }
    expect(await trading()).toBe(true);
    const walletsBefore = (await call("GET", `/api/bumper/${bumper.id}/wallets`)).body
      .wallets as BumperWallet[];
    const receiver = privateKeyToAccount(generatePrivateKey()).address;

    // The withdrawal waits for the bump, which the per-block reconcile settles meanwhile.
    let answered = false;
    const withdrawal = call("POST", "/api/bumper/withdraw", {
      bumperId: bumper.id,
      receiverAddress: receiver,
    }).finally(() => {
      answered = true;
    });
    while (!answered) {
      await bed.app.transactions?.reconcile();
      await sleep(200);
    }
    const answer = await withdrawal;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const wallets = (await call("GET", `/api/bumper/${bumper.id}/wallets`)).body
      .wallets as BumperWallet[];
    expect(wallets.length).toBeGreaterThan(walletsBefore.length);
    for (const wallet of wallets) expect(await balanceOf(wallet.address as Address)).toBe(0n);
    expect(await balanceOf(receiver)).toBe(parseEther(answer.body.amount as string));
    expect(await balanceOf(receiver)).toBeGreaterThan(parseEther("0.05"));
  });

  /**
   * A stopped bumper after one bump whose wallet `pick` (of its wallets, most BNB first) is
   * given half a bundle wallet's tokens in the block just before the withdrawal, and then
   * `bnb` wei when given; withdrawn to a fresh receiver. Answers the token, that wallet, the
   * receiver and the withdrawal's answer.
   */
  const withdrawWithTokensJustArrived = async ({
    pick = 0,
    bnb,
  }: {
    pick?: number;
    bnb?: bigint;
  } = {}) => {
    const bundle = await launch();
    const bumper = (await generate(bundle.token, { duration: 10 })).body.bumper as Bumper;
    await setBalance(bumper.address as Address, parseEther("0.1"));
    await call("POST", `/api/bumper/${bumper.id}/start`);
    await bumpUntil((b) => b.bumpsCompleted >= 1, bumper.id);
    await call("POST", `/api/bumper/${bumper.id}/stop`);
    // Each bump moves the bumper's BNB to a fresh wallet: the first holds it now.
    const holder = (
      (await call("GET", `/api/bumper/${bumper.id}/wallets`)).body.wallets as BumperWallet[]
    ).sort((a, b) => Number(b.balance) - Number(a.balance))[pick];
    const seller = bundle.wallets[0];
    if (!holder || !seller) throw new Error("no such bumper wallet, or no bundle wallet");
    const hash = await createWalletClient({
      account: seller,
      transport: http(bed.testChain.local.rpcUrl),
    }).writeContract({
      chain: null,
      address: bundle.token,
      abi: erc20Abi,
      functionName: "transfer",
      args: [
        holder.address as Address,
        (await tokenBalance(bed.testChain, bundle.token, seller.address)) / 2n,
      ],
    });
    await bed.testChain.chain.client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    if (bnb !== undefined) await setBalance(holder.address as Address, bnb);
    const receiver = privateKeyToAccount(generatePrivateKey()).address;
    const answer = await call("POST", "/api/bumper/withdraw", {
      bumperId: bumper.id,
      receiverAddress: receiver,
    });
    expect(answer.status).toBe(200);
    return {
      token: bundle.token,
      holder: holder.address as Address,
      receiver,
      answer: answer.body,
    };
  };

  it("keeps the BNB of a wallet whose tokens did not sell, and says which and why", async () => {
    // Enough for its own gas, not for the bundle's tip: no builder is paid, nothing sells.
    const bnb = parseEther("0.0003");
    const { token, holder, receiver, answer } = await withdrawWithTokensJustArrived({
      pick: 1,
      bnb,
    });
    expect(await tokenBalance(bed.testChain, token, holder)).toBeGreaterThan(0n);
    expect(await balanceOf(holder)).toBe(bnb);
    const unsold = answer.unsold as Array<{ wallet: string; reason: string }>;
    expect(unsold.map((u) => u.wallet)).toEqual([holder]);
    expect(answer.message).toBe(
      `Successfully withdrew ${answer.amount} BNB to ${receiver}. ${bumperUnsoldText(holder, unsold[0]?.reason ?? "")}`,
    );
    expect(unsold[0]?.reason).toMatch(/tip/);
  });

  it("sells tokens that arrived in the block before the withdrawal, never emptying their wallet of its gas first", async () => {
    const { token, holder } = await withdrawWithTokensJustArrived();
    expect(await tokenBalance(bed.testChain, token, holder)).toBe(0n);
    expect(await balanceOf(holder)).toBe(0n);
  });

  it("sells a withdrawal's tokens privately, in a bundle, never in the public pool", async () => {
    const { holder } = await withdrawWithTokensJustArrived();
    const { rows } = await bed.app.database.db.execute(
      sql`select status, broadcasts, valid_until_block is not null as bundled from chain_txs
        where lower("from") = ${holder.toLowerCase()} and purpose = 'bundle-sell'`,
    );
    // A bundle's transactions are only ever given to the builders, never broadcast.
    expect(rows).toEqual([{ status: "mined", broadcasts: 0, bundled: true }]);
  });

  it.each([
    ["on the curve", false],
    ["on the DEX after graduation", true],
  ])(
    "empties a wallet that holds only dust of the token (1 wei, nothing a sale can take) %s",
    async (_, graduated) => {
      const bundle = await launch();
      if (graduated) await graduate(bed.testChain, bundle.token);
      const bumper = (await generate(bundle.token)).body.bumper as Bumper;
      const wallet = bumper.address as Address;
      await setBalance(wallet, parseEther("0.01"));
      // Anyone may send a wallet 1 wei of the token.
      const seller = bundle.wallets[0];
      if (!seller) throw new Error("no bundle wallet");
      const hash = await createWalletClient({
        account: seller,
        transport: http(bed.testChain.local.rpcUrl),
      }).writeContract({
        chain: null,
        address: bundle.token,
        abi: erc20Abi,
        functionName: "transfer",
        args: [wallet, 1n],
      });
      await bed.testChain.chain.client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
      const receiver = privateKeyToAccount(generatePrivateKey()).address;
      const answer = await call("POST", "/api/bumper/withdraw", {
        bumperId: bumper.id,
        receiverAddress: receiver,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.unsold).toEqual([]);
      expect(await balanceOf(wallet)).toBe(0n);
      expect(await balanceOf(receiver)).toBe(parseEther(answer.body.amount as string));
      expect(await balanceOf(receiver)).toBeGreaterThan(0n);
      // The dust stays where it was: nothing can move it for less than it costs.
      expect(await tokenBalance(bed.testChain, bundle.token, wallet)).toBe(1n);
    },
  );

  it("withdraws every wallet's BNB to the receiver, selling tokens left first, and stops the bumper", async () => {
    const bundle = await launch();
    const bumper = (await generate(bundle.token, { duration: 10 })).body.bumper as Bumper;
    await setBalance(bumper.address as Address, parseEther("0.1"));
    await call("POST", `/api/bumper/${bumper.id}/start`);
    await bumpUntil((b) => b.bumpsCompleted >= 1, bumper.id);
    const receiver = privateKeyToAccount(generatePrivateKey()).address;

    const bad = await call("POST", "/api/bumper/withdraw", {
      bumperId: bumper.id,
      receiverAddress: "nope",
    });
    expect(bad.body).toEqual({ success: false, error: "Invalid address format" });

    const answer = await call("POST", "/api/bumper/withdraw", {
      bumperId: bumper.id,
      receiverAddress: receiver,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe(
      `Successfully withdrew ${answer.body.amount} BNB to ${receiver}`,
    );
    expect(await balanceOf(receiver)).toBe(parseEther(answer.body.amount as string));
    const wallets = (await call("GET", `/api/bumper/${bumper.id}/wallets`)).body
      .wallets as BumperWallet[];
    for (const wallet of wallets) expect(await balanceOf(wallet.address as Address)).toBe(0n);
    const after = (await call("GET", `/api/bumper/${bumper.id}`)).body.bumper as Bumper;
    expect(after.status).toBe("stopped");
  });
});
