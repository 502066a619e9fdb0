import { describe, expect, it } from "vitest";
import { isMenuLinkActive } from "./menu-links.ts";

describe("isMenuLinkActive", () => {
  it("marks [bundler] active on the home page", () => {
    expect(isMenuLinkActive("/", "/")).toBe(true);
  });

  it("marks [bundler] active on /create", () => {
    expect(isMenuLinkActive("/create", "/")).toBe(true);
  });

  it("does not mark [bundler] active on other pages", () => {
    expect(isMenuLinkActive("/drafts", "/")).toBe(false);
    expect(isMenuLinkActive("/tools/bumper", "/")).toBe(false);
  });

  it("marks a link active when the path equals it", () => {
    expect(isMenuLinkActive("/drafts", "/drafts")).toBe(true);
  });

  it("marks a link active for paths under it", () => {
    expect(isMenuLinkActive("/tools/bumper", "/tools")).toBe(true);
    expect(isMenuLinkActive("/admin/key/42", "/admin")).toBe(true);
  });

  it("ignores a trailing slash", () => {
    expect(isMenuLinkActive("/wallets/", "/wallets")).toBe(true);
    expect(isMenuLinkActive("/create/", "/")).toBe(true);
  });

  it("does not match a path that only shares a prefix of letters", () => {
    expect(isMenuLinkActive("/toolsmith", "/tools")).toBe(false);
  });

  it("does not mark a link active on an unrelated page", () => {
    expect(isMenuLinkActive("/disperser", "/wallets")).toBe(false);
  });
});
