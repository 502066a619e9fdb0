import { describe, expect, it } from "vitest";
import {
  DISPERSER_MESSAGES,
  invalidAmountMessage,
  prepareDispersal,
  summarizeDispersal,
  type WalletRow,
  walletAmount,
} from "./dispersal-form.ts";

const A = "0x1111111111111111111111111111111111111111";
const B = "0x2222222222222222222222222222222222222222";
const C = "0x3333333333333333333333333333333333333333";

let nextId = 0;
const row = (address: string, amount: string): WalletRow => {
  nextId += 1;
  return { id: nextId, address, amount };
};

describe("walletAmount", () => {
  it("adds the buffer to the row's amount exactly", () => {
    expect(walletAmount("0.1", "0.2")).toBe("0.3");
    expect(walletAmount("0.000000000000000001", "0.01")).toBe("0.010000000000000001");
  });

  it("counts an empty or unparsable amount as 0", () => {
    expect(walletAmount("", "0.01")).toBe("0.01");
    expect(walletAmount("abc", "0.01")).toBe("0.01");
  });

  it("reads a leading decimal point as 0.", () => {
    expect(walletAmount(".5", "0.01")).toBe("0.51");
  });
});

describe("summarizeDispersal", () => {
  it("counts only rows with a valid address", () => {
    const rows = [row(A, "0.1"), row("0x123", "5"), row("", ""), row(B, "0.2")];
    expect(summarizeDispersal(rows, "0.01").wallets).toBe(2);
  });

  it("totals every valid row plus its buffer without float drift", () => {
    const rows = [row(A, "0.1"), row(B, "0.2"), row(C, "")];
    expect(summarizeDispersal(rows, "0.01").total).toBe("0.33");
  });

  it("shows 0 when nothing parses", () => {
    expect(summarizeDispersal([row(A, "x")], "y").total).toBe("0");
    expect(summarizeDispersal([], "0.01").total).toBe("0");
  });
});

describe("prepareDispersal", () => {
  it("asks for a buffer first", () => {
    const rows = [row(A, "0.1")];
    expect(prepareDispersal(rows, "", true)).toEqual({
      ok: false,
      error: DISPERSER_MESSAGES.buffer,
    });
    expect(prepareDispersal(rows, "abc", true)).toEqual({
      ok: false,
      error: DISPERSER_MESSAGES.buffer,
    });
  });

  it("treats a zero buffer as missing", () => {
    expect(prepareDispersal([row(A, "0.1")], "0", true)).toEqual({
      ok: false,
      error: DISPERSER_MESSAGES.buffer,
    });
  });

  it("asks for wallets when no row has a valid address", () => {
    expect(prepareDispersal([row("0xnope", "0.1"), row("", "")], "0.01", true)).toEqual({
      ok: false,
      error: DISPERSER_MESSAGES.wallets,
    });
  });

  it("asks for amounts when no valid row has an amount above 0", () => {
    expect(prepareDispersal([row(A, ""), row(B, "0"), row("bad", "1")], "0.01", true)).toEqual({
      ok: false,
      error: DISPERSER_MESSAGES.amounts,
    });
  });

  it("checks the buffer before the wallets and the wallets before the amounts", () => {
    expect(prepareDispersal([], "", true)).toMatchObject({ error: DISPERSER_MESSAGES.buffer });
    expect(prepareDispersal([], "0.01", true)).toMatchObject({ error: DISPERSER_MESSAGES.wallets });
  });

  it("refuses a malformed amount on a row that would be sent, naming its row", () => {
    expect(prepareDispersal([row(A, "0.1"), row(B, "1,5")], "0.01", true)).toEqual({
      ok: false,
      error: invalidAmountMessage(2, "1,5"),
    });
  });

  it("drops rows with an invalid address silently", () => {
    const prepared = prepareDispersal([row("0x12", "zzz"), row(A, "0.1")], "0.01", false);
    expect(prepared).toEqual({
      ok: true,
      body: { wallets: [A], amounts: ["0.11"], antiBubblemaps: false },
    });
  });

  it("sends each wallet its amount plus the buffer, a row without amount just the buffer", () => {
    const prepared = prepareDispersal(
      [row(A, "0.1"), row(` ${B} `, " 0.25 "), row(C, "")],
      "0.01",
      true,
    );
    expect(prepared).toEqual({
      ok: true,
      body: { wallets: [A, B, C], amounts: ["0.11", "0.26", "0.01"], antiBubblemaps: true },
    });
  });
});
