import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-error.ts";
import { withReferralCode } from "./with-referral-code.ts";

const storeWith = (code: string | null) => {
  const store = {
    code,
    read: () => store.code,
    forget: () => {
      store.code = null;
    },
  };
  return store;
};

describe("withReferralCode", () => {
  it("sends the remembered code", async () => {
    const sent: Array<string | undefined> = [];
    await withReferralCode(async (code) => sent.push(code), storeWith("CATS"));
    expect(sent).toEqual(["CATS"]);
  });

  it("sends no code when none is remembered", async () => {
    const sent: Array<string | undefined> = [];
    await withReferralCode(async (code) => sent.push(code), storeWith(null));
    expect(sent).toEqual([undefined]);
  });

  it("forgets a code the server does not know and asks again without it", async () => {
    const store = storeWith("GONE");
    const sent: Array<string | undefined> = [];
    const answer = await withReferralCode(async (code) => {
      sent.push(code);
      if (code) throw new ApiError(400, "Invalid referral code");
      return "key";
    }, store);
    expect(answer).toBe("key");
    expect(sent).toEqual(["GONE", undefined]);
    expect(store.code).toBeNull();
  });

  it("keeps the code and passes on any other failure", async () => {
    const store = storeWith("CATS");
    await expect(
      withReferralCode(async () => {
        throw new ApiError(429);
      }, store),
    ).rejects.toBeInstanceOf(ApiError);
    expect(store.code).toBe("CATS");
  });
});
