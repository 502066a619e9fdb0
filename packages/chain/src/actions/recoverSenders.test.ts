import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { recoverSenders } from "./recoverSenders.ts";

const signed = async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const raw = await account.signTransaction({
    chainId: 56,
    type: "legacy",
    nonce: 0,
    gas: 21_000n,
    gasPrice: 1_000_000_000n,
    to: account.address,
    value: parseEther("0.1"),
  });
  return { raw, from: account.address };
};

describe("recoverSenders", () => {
  it("answers each transaction's signer, in order", async () => {
    const txs = await Promise.all([signed(), signed(), signed()]);
    expect(await recoverSenders(txs.map((t) => t.raw))).toEqual(txs.map((t) => t.from));
  });

  it("lets the event loop turn between two recoveries instead of holding it for all of them", async () => {
    const txs = await Promise.all(Array.from({ length: 4 }, signed));
    const order: string[] = [];
    const recovering = recoverSenders(txs.map((t) => t.raw)).then(() => order.push("recovered"));
    // Runs at the loop's next turn: before the end only if the recoveries gave one up.
    setImmediate(() => order.push("turn"));
    await recovering;
    expect(order).toEqual(["turn", "recovered"]);
  });

  it("names the index of a transaction that is not a signed one", async () => {
    const { raw } = await signed();
    await expect(recoverSenders([raw, "0x1234"])).rejects.toThrow(
      "txs[1] is not a signed transaction",
    );
  });
});
