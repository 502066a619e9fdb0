import { sql } from "drizzle-orm";
import { type Address, keccak256, parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { chainTxs } from "../../db/schema.ts";
import { armFailpoint, disarmFailpoints } from "../../lib/failpoints.ts";
import { draftInput, newWallet } from "../../test/drafts-api.ts";
import { useLaunchTestbed } from "../launch/launch.test-support.ts";

// What a draft update does to the keys it replaces, against a real chain (balances, nonces).
const ctx = useLaunchTestbed();
const { call, rpc, setBalance } = ctx;

/** The draft's key rows, as lowercase `purpose:address`, sorted. */
const keyRows = async (draftId: string) =>
  (
    await ctx.app.database.db.execute(
      sql`select purpose, lower(address) as address from wallet_keys where draft_id = ${draftId}`,
    )
  ).rows
    .map((row) => {
      const { purpose, address } = row as { purpose: string; address: string };
      return `${purpose}:${address}`;
    })
    .sort();

const rowsOf = (input: ReturnType<typeof draftInput>) =>
  [
    `deployer:${input.deployerWallet.address.toLowerCase()}`,
    ...input.walletConfig.wallets.map((w) => `bundle:${w.address.toLowerCase()}`),
  ].sort();

/** A saved draft, then the same draft with every wallet and the deployer replaced. */
const savedThenReplaced = async () => {
  const first = draftInput(2);
  const { body } = await call("POST", "/api/draft/create", first);
  const id = body.draftId as string;
  const second = draftInput(2);
  return { id, first, second };
};

describe("a draft update and the keys it replaces", () => {
  it("deletes the replaced keys of wallets that never held or moved money", async () => {
    const { id, second } = await savedThenReplaced();
    expect((await call("PUT", `/api/draft/${id}`, second)).status).toBe(200);
    expect(await keyRows(id)).toEqual(rowsOf(second));
  });

  it("stores no second row for a key the update names again", async () => {
    const { id, first } = await savedThenReplaced();
    expect((await call("PUT", `/api/draft/${id}`, first)).status).toBe(200);
    expect((await call("PUT", `/api/draft/${id}`, first)).status).toBe(200);
    expect(await keyRows(id)).toEqual(rowsOf(first));
  });

  it("keeps the key of a replaced wallet that holds BNB", async () => {
    const { id, first, second } = await savedThenReplaced();
    const funded = first.walletConfig.wallets[0]?.address as Address;
    await setBalance(funded, 1n);
    expect((await call("PUT", `/api/draft/${id}`, second)).status).toBe(200);
    expect(await keyRows(id)).toEqual([...rowsOf(second), `bundle:${funded.toLowerCase()}`].sort());
  });

  it("keeps the key of a replaced wallet that a transaction of the server paid, though empty now", async () => {
    const { id, first, second } = await savedThenReplaced();
    const paid = first.walletConfig.wallets[1]?.address as Address;
    const raw = `0x${"ab".repeat(100)}` as const;
    await ctx.app.database.db.insert(chainTxs).values({
      key: `test:paid:${paid}`,
      purpose: "faucet",
      from: newWallet().address,
      to: paid,
      value: parseEther("0.1").toString(),
      nonce: 0,
      gas: 21_000n,
      gasPrice: "1000000000",
      rawTx: raw,
      txHash: keccak256(raw),
      status: "mined",
    });
    expect((await call("PUT", `/api/draft/${id}`, second)).status).toBe(200);
    expect(await keyRows(id)).toEqual([...rowsOf(second), `bundle:${paid.toLowerCase()}`].sort());
  });

  it("keeps the key of a replaced wallet that BNB reached after the keys were checked, before they were deleted", async () => {
    const { id, first, second } = await savedThenReplaced();
    const late = first.walletConfig.wallets[0]?.address as Address;
    armFailpoint("drafts.keysChecked", () => setBalance(late, 1n), 1);
    try {
      expect((await call("PUT", `/api/draft/${id}`, second)).status).toBe(200);
    } finally {
      disarmFailpoints();
    }
    expect(await keyRows(id)).toEqual([...rowsOf(second), `bundle:${late.toLowerCase()}`].sort());
  });

  it("keeps the key of a replaced deployer that has sent a transaction", async () => {
    const { id, first, second } = await savedThenReplaced();
    const deployer = first.deployerWallet.address;
    // Nonce 1 and no BNB: it sent everything it had.
    await rpc("anvil_setNonce", [deployer, "0x1"]);
    expect((await call("PUT", `/api/draft/${id}`, second)).status).toBe(200);
    expect(await keyRows(id)).toEqual(
      [...rowsOf(second), `deployer:${deployer.toLowerCase()}`].sort(),
    );
  });
});
