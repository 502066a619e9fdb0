import { FourMemeHttpError } from "@bundler/chain";
import type { TokenInfo } from "@bundler/shared";
import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { decodeLogo, describeFourMemeError, feeOf, tokenTaxInfo } from "./create-args.ts";

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a];
const JPEG = [0xff, 0xd8, 0xff, 0xe0];

describe("the four.meme step", () => {
  it("reads the draft's logo from a data URL, keeping its declared type", () => {
    const image = decodeLogo(`data:image/png;base64,${Buffer.from(PNG).toString("base64")}`);
    expect([...image.bytes]).toEqual(PNG);
    expect(image).toMatchObject({ mimeType: "image/png", fileName: "logo.png" });
  });

  it("reads bare base64 and tells the type from the first bytes", () => {
    const image = decodeLogo(Buffer.from(JPEG).toString("base64"));
    expect(image).toMatchObject({ mimeType: "image/jpeg", fileName: "logo.jpg" });
  });

  it("refuses an empty logo with what to do", () => {
    expect(() => decodeLogo("data:image/png;base64,")).toThrow(
      "the draft's logo could not be read: edit the draft and upload it again",
    );
  });

  it('sends tokenTaxInfo with recipientAddress "" when the recipient\'s share is 0, whatever the form held (create-guide §3.4)', () => {
    const tax = {
      feeRate: 5,
      burnRate: 50,
      divideRate: 50,
      liquidityRate: 0,
      recipientRate: 0,
      recipientAddress: "0x1234567890123456789012345678901234567890",
      minSharing: 100000,
    };
    const info = { tokenTaxInfo: tax } as TokenInfo;
    expect(tokenTaxInfo(info)).toEqual({ ...tax, recipientAddress: "" });
    const paid = { ...tax, burnRate: 40, recipientRate: 10 };
    expect(tokenTaxInfo({ tokenTaxInfo: paid } as TokenInfo)).toEqual(paid);
  });

  it("reads the creation fee from the raise config when it is a BNB amount", () => {
    expect(feeOf("0.01")).toBe(parseEther("0.01"));
    expect(feeOf(0.005)).toBe(parseEther("0.005"));
    expect(feeOf(undefined)).toBeNull();
    expect(feeOf("free")).toBeNull();
  });

  it("says which step four.meme refused, and when it could not be reached at all", () => {
    const login = new FourMemeHttpError({
      path: "/private/user/login/dex",
      status: 200,
      msg: "Signature verification failed",
    });
    expect(describeFourMemeError(login)).toBe(
      "four.meme refused the deployer's login: Signature verification failed",
    );
    const create = new FourMemeHttpError({
      path: "/private/token/create",
      status: 200,
      msg: "Name taken",
    });
    expect(describeFourMemeError(create)).toBe("four.meme refused to create the token: Name taken");
    const down = new FourMemeHttpError({
      path: "/private/token/create",
      status: null,
      msg: "fetch failed",
    });
    expect(describeFourMemeError(down)).toMatch(
      /^four\.meme could not be reached \(fetch failed\)/,
    );
  });
});
