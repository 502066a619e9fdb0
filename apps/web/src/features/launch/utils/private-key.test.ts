import { describe, expect, it } from "vitest";
import { generateWallet, parsePrivateKeyList, walletFromPrivateKey } from "./private-key.ts";

// anvil's first account
const KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

describe("private keys", () => {
  it("derives the address with or without 0x", () => {
    expect(walletFromPrivateKey(KEY)?.address).toBe(ADDRESS);
    expect(walletFromPrivateKey(` ${KEY.slice(2).toUpperCase()} `)).toEqual({
      address: ADDRESS,
      privateKey: KEY,
    });
  });

  it("rejects non-keys and the zero key", () => {
    expect(walletFromPrivateKey("0x1234")).toBeNull();
    expect(walletFromPrivateKey(`0x${"zz".repeat(32)}`)).toBeNull();
    expect(walletFromPrivateKey(`0x${"00".repeat(32)}`)).toBeNull();
  });

  it("generates a valid wallet, retrying an invalid draw", () => {
    let calls = 0;
    const wallet = generateWallet((bytes) => {
      calls += 1;
      return bytes.fill(calls === 1 ? 0 : 7);
    });
    expect(calls).toBe(2);
    expect(wallet.privateKey).toBe(`0x${"07".repeat(32)}`);
    expect(walletFromPrivateKey(generateWallet().privateKey)).not.toBeNull();
  });

  it("imports comma-separated keys, dropping invalid ones and duplicates", () => {
    const wallets = parsePrivateKeyList(`${KEY}, nope ,${KEY.slice(2)},\n0x${"07".repeat(32)}`);
    expect(wallets.map((w) => w.address)).toHaveLength(2);
    expect(wallets[0]?.address).toBe(ADDRESS);
    expect(parsePrivateKeyList("a, b")).toEqual([]);
  });
});
