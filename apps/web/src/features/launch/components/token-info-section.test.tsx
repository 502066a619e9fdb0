import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderInApp } from "../../../testing/render.tsx";
import { EMPTY_LAUNCH_FORM } from "../utils/launch-form.ts";
import { TokenInfoSection } from "./token-info-section.tsx";

describe("the token info section", () => {
  it("says beside the trading fee why four.meme's anti-sniper fee mode stays off (create-guide §3.3)", () => {
    renderInApp(<TokenInfoSection form={EMPTY_LAUNCH_FORM} set={() => {}} errors={{}} />);

    expect(screen.getByTestId("fee-plan-note").textContent).toBe(
      "four.meme's anti-sniper fee mode stays off: it charges the most in a token's first blocks, where this launch's own bundle buys land.",
    );
  });
});
