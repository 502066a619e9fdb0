import { describe, expect, it } from "vitest";
import { parseWalletJson, WALLET_JSON_ERRORS } from "./wallet-json.ts";

const KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

describe("parseWalletJson", () => {
  it("reads the Wagyu format", () => {
    const result = parseWalletJson(
      "w.json",
      JSON.stringify([{ address: ADDRESS, privateKey: KEY }]),
    );
    expect(result).toEqual({ ok: true, wallets: [{ address: ADDRESS, privateKey: KEY }] });
  });

  it("reads the simple format", () => {
    expect(parseWalletJson("w.JSON", JSON.stringify([KEY]))).toEqual({
      ok: true,
      wallets: [{ address: ADDRESS, privateKey: KEY }],
    });
  });

  it("gives the spec's errors", () => {
    expect(parseWalletJson("w.txt", "[]")).toEqual({
      ok: false,
      error: WALLET_JSON_ERRORS.notJson,
    });
    expect(parseWalletJson("w.json", "{}")).toEqual({
      ok: false,
      error: WALLET_JSON_ERRORS.notArray,
    });
    expect(parseWalletJson("w.json", "[1]")).toEqual({
      ok: false,
      error: WALLET_JSON_ERRORS.badEntry,
    });
    expect(parseWalletJson("w.json", '["abc"]')).toEqual({
      ok: false,
      error: WALLET_JSON_ERRORS.badEntry,
    });
  });
});
