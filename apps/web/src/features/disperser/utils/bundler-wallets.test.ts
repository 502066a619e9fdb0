import { describe, expect, it } from "vitest";
import { encodeBundlerWallets } from "../../../lib/bundler-wallets.ts";
import { DECRYPT_FAILED, readBundlerWallets } from "./bundler-wallets.ts";

const A = "0x1111111111111111111111111111111111111111";
const B = "0x2222222222222222222222222222222222222222";

describe("readBundlerWallets", () => {
  it("reads what the launch page's hand-off writes", () => {
    const raw = encodeBundlerWallets([
      { address: A, buyValue: "0.1" },
      { address: B, buyValue: "0.25" },
    ]);
    expect(readBundlerWallets(raw)).toEqual({
      status: "ok",
      wallets: [
        { address: A, buyValue: "0.1" },
        { address: B, buyValue: "0.25" },
      ],
    });
  });

  it("finds nothing when the key is missing or the list is empty", () => {
    expect(readBundlerWallets(null)).toEqual({ status: "none" });
    expect(readBundlerWallets("")).toEqual({ status: "none" });
    expect(readBundlerWallets("[]")).toEqual({ status: "none" });
  });

  it("keeps a wallet without buy value with an empty amount", () => {
    expect(readBundlerWallets(JSON.stringify([{ address: A }]))).toEqual({
      status: "ok",
      wallets: [{ address: A, buyValue: "" }],
    });
  });

  it("fails to decrypt corrupt JSON", () => {
    expect(readBundlerWallets("[{address:")).toEqual({ status: "error", error: DECRYPT_FAILED });
  });

  it("fails to decrypt a value that is not a list of wallets", () => {
    expect(readBundlerWallets('{"address":"0x1"}')).toEqual({
      status: "error",
      error: DECRYPT_FAILED,
    });
    expect(readBundlerWallets('["0x1"]')).toEqual({ status: "error", error: DECRYPT_FAILED });
    expect(readBundlerWallets(JSON.stringify([{ address: A, buyValue: {} }]))).toEqual({
      status: "error",
      error: DECRYPT_FAILED,
    });
  });
});
