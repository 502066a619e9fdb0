import { fireEvent, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { renderInApp } from "../../../testing/render.tsx";
import { EMPTY_LAUNCH_FORM, type LaunchForm } from "../utils/launch-form.ts";
import { fieldErrors } from "../utils/validate-launch-form.ts";
import { TokenInfoSection } from "./token-info-section.tsx";

/** The section with a live form and the form's own validator, as the create page has them. */
function LiveSection() {
  const [form, setForm] = useState<LaunchForm>(EMPTY_LAUNCH_FORM);
  return (
    <TokenInfoSection
      form={form}
      set={(field, value) => setForm((current) => ({ ...current, [field]: value }))}
      errors={fieldErrors(form, [])}
    />
  );
}

const alerts = () => screen.queryAllByRole("alert").map((alert) => alert.textContent);
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe("the token info section", () => {
  it("says beside the trading fee why four.meme's anti-sniper fee mode stays off (create-guide §3.3)", () => {
    renderInApp(<TokenInfoSection form={EMPTY_LAUNCH_FORM} set={() => {}} errors={{}} />);

    expect(screen.getByTestId("fee-plan-note").textContent).toBe(
      "four.meme's anti-sniper fee mode stays off: it charges the most in a token's first blocks, where this launch's own bundle buys land.",
    );
  });

  it("shows the tax fields only for a tax token, and says each broken tax rule in a sentence naming its field (create-guide §3.4)", () => {
    renderInApp(<LiveSection />);
    expect(screen.queryByTestId("tax-fields")).toBeNull();

    type("Token type", "tax");
    expect(screen.getByTestId("tax-fields")).toBeTruthy();
    expect(
      [...(screen.getByLabelText("Tax fee rate") as HTMLSelectElement).options].map((o) => o.text),
    ).toEqual(["1%", "3%", "5%", "10%"]);
    // The defaults (5%, all to the recipient) need only the recipient's address.
    expect(alerts()).toEqual(["Recipient address is required when the recipient share is over 0%"]);

    type("Recipient share", "10");
    type("Burn share", "20");
    type("Dividend share", "30");
    type("Liquidity share", "39");
    type("Recipient address", "0x1234");
    type("Minimum balance for dividends", "10000");
    expect(alerts()).toEqual([
      "Minimum balance for dividends must be a digit from 1 to 9 followed by at least five zeros, like 100000 (d × 10^n tokens, n ≥ 5)",
      "Burn, dividend, liquidity and recipient shares must add up to 100% (they add up to 99%)",
      "Recipient address must be an address: 0x and 40 hex characters",
    ]);

    type("Liquidity share", "40.5");
    expect(alerts()).toContain("Liquidity share must be a whole percent from 0 to 100");

    type("Liquidity share", "40");
    type("Recipient address", "0x1234567890123456789012345678901234567890");
    type("Minimum balance for dividends", "2000000");
    expect(alerts()).toEqual([]);

    type("Recipient share", "0");
    type("Burn share", "30");
    type("Recipient address", "");
    expect(alerts()).toEqual([]);
  });
});
