import { screen } from "@testing-library/react";
import { HttpResponse } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { bumperFixture, bumperId } from "../../../testing/bumper-handlers.ts";
import { settle, toastTexts } from "../../../testing/render.tsx";
import {
  field,
  postHandler,
  press,
  refused,
  renderBumperPage,
  selectBumper,
  serverState,
  type,
} from "./bumper-test-utils.tsx";

beforeEach(() => {
  vi.useFakeTimers();
});

const RECEIVER = `0x${"e".repeat(40)}`;

async function withdrawTo(receiver: string) {
  await renderBumperPage(serverState({ bumpers: [bumperFixture({ balance: "0.02" })] }));
  await selectBumper();
  type("Receiver address", receiver);
  press("Withdraw funds");
  await settle();
}

describe("withdrawing from a bumper", () => {
  it("asks for a receiver address and sends nothing without one", async () => {
    const sent = postHandler("/api/bumper/withdraw", () => refused());
    await withdrawTo("");
    expect(screen.getByRole("alert").textContent).toBe("Receiver address is required");
    expect(sent).toEqual([]);
  });

  it("refuses a malformed receiver address", async () => {
    const sent = postHandler("/api/bumper/withdraw", () => refused());
    await withdrawTo("0xabc");
    expect(screen.getByRole("alert").textContent).toBe("Invalid address format");
    expect(sent).toEqual([]);
  });

  it("sends the bumper's BNB to the receiver and says how much went where", async () => {
    const sent = postHandler("/api/bumper/withdraw", () =>
      HttpResponse.json({ success: true, amount: "0.019979", message: "done", unsold: [] }),
    );
    await withdrawTo(RECEIVER);
    expect(sent).toEqual([{ bumperId: bumperId(1), receiverAddress: RECEIVER }]);
    expect(toastTexts()).toContain(`Successfully withdrew 0.0200 BNB to ${RECEIVER}`);
    expect(field("Receiver address").value).toBe("");
  });

  it("says which wallet's tokens did not sell, and why, as plainly as a failure", async () => {
    const wallet = `0x${"a".repeat(40)}`;
    postHandler("/api/bumper/withdraw", () =>
      HttpResponse.json({
        success: true,
        amount: "0.019979",
        message: "done",
        unsold: [{ wallet, reason: "the wallet had too little BNB for gas" }],
      }),
    );
    await withdrawTo(RECEIVER);
    const text = `Successfully withdrew 0.0200 BNB to ${RECEIVER}. Wallet ${wallet} keeps its BNB: its tokens did not sell (the wallet had too little BNB for gas). Withdraw again to try once more`;
    expect(toastTexts()).toContain(text);
    expect(screen.getByRole("alert").textContent).toContain(text);
  });

  it("shows the server's reason when a withdrawal fails", async () => {
    postHandler("/api/bumper/withdraw", () => refused("Nothing to withdraw"));
    await withdrawTo(RECEIVER);
    expect(toastTexts()).toContain("Failed to withdraw funds: Nothing to withdraw");
    expect(field("Receiver address").value).toBe(RECEIVER);
  });

  it("says it failed to withdraw when the server gives no reason", async () => {
    postHandler("/api/bumper/withdraw", () => refused());
    await withdrawTo(RECEIVER);
    expect(toastTexts()).toContain("Failed to withdraw funds");
  });
});
