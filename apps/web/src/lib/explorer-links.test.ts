import { describe, expect, it } from "vitest";
import { explorerAddressUrl } from "./explorer-links.ts";

const ADDRESS = "0x1111111111111111111111111111111111111111";

describe("explorerAddressUrl", () => {
  it("links the explorer's address or token page, whatever slashes end its URL", () => {
    expect(explorerAddressUrl("https://bscscan.com", ADDRESS)).toBe(
      `https://bscscan.com/address/${ADDRESS}`,
    );
    expect(explorerAddressUrl("https://testnet.bscscan.com//", ADDRESS, "token")).toBe(
      `https://testnet.bscscan.com/token/${ADDRESS}`,
    );
  });

  it("links the app's own address page on a chain without an explorer, tokens included", () => {
    expect(explorerAddressUrl(null, ADDRESS)).toBe(`/address/${ADDRESS}`);
    expect(explorerAddressUrl(undefined, ADDRESS, "token")).toBe(`/address/${ADDRESS}`);
    expect(explorerAddressUrl("", ADDRESS)).toBe(`/address/${ADDRESS}`);
  });
});
