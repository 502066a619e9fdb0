import { render } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { REFERRAL_CODE_KEY } from "../../lib/referral-code.ts";
import { useReferralCapture } from "./use-referral-capture.ts";

function Probe() {
  useReferralCapture();
  return null;
}

const visit = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <Probe />
    </MemoryRouter>,
  );

afterEach(() => localStorage.clear());

describe("useReferralCapture", () => {
  it("remembers ?referral= on a page other than the home page", () => {
    visit("/tools/bumper?referral=CatClub");
    expect(localStorage.getItem(REFERRAL_CODE_KEY)).toBe("CatClub");
  });

  it("remembers nothing for a page without the parameter", () => {
    visit("/drafts?page=2");
    expect(localStorage.getItem(REFERRAL_CODE_KEY)).toBeNull();
  });
});
