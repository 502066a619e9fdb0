import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-client.ts";
import { walletProblemOf } from "./wallet-problem.ts";

describe("the wallet a refused request names", () => {
  it("is the draft wallet's row with the server's sentence", () => {
    const error = new ApiError(400, "Wallet 3 buy must be a BNB amount like 0.1", {
      field: "walletConfig.wallets.2.buyValue",
      row: 3,
    });
    expect(walletProblemOf(error)).toEqual({
      row: 3,
      message: "Wallet 3 buy must be a BNB amount like 0.1",
    });
  });

  it("is nothing when the problem is another field's", () => {
    const error = new ApiError(400, "Tip cannot be negative", { field: "walletConfig.tip" });
    expect(walletProblemOf(error)).toBeNull();
  });
});
