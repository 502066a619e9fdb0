import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderInApp } from "../../../testing/render.tsx";
import { ChainCard } from "./chain-card.tsx";
import { DispersalSummary } from "./dispersal-summary.tsx";

describe("money on the disperser, 4 decimals (SPEC §9)", () => {
  it("shows the summary's total to 4 decimals", () => {
    renderInApp(<DispersalSummary summary={{ wallets: 3, total: "0.43" }} />);
    expect(screen.getByTestId("summary-total").textContent).toBe("0.4300 BNB");
  });

  it("rounds a long total instead of printing every wei", () => {
    renderInApp(<DispersalSummary summary={{ wallets: 1, total: "1.234567891234567891" }} />);
    expect(screen.getByTestId("summary-total").textContent).toBe("1.2346 BNB");
  });

  it("shows a chain's amount to 4 decimals, the exact amount on hover", () => {
    renderInApp(
      <ul>
        <ChainCard
          index={0}
          chain={{
            finalWallet: "0x2222222222222222222222222222222222222222",
            amount: "0.110021",
            currentHop: 3,
            completed: false,
            failed: false,
          }}
        />
      </ul>,
    );
    const amount = within(screen.getByTestId("chain-card")).getByText("0.1100 BNB");
    expect(amount.getAttribute("title")).toBe("0.110021 BNB");
  });
});
