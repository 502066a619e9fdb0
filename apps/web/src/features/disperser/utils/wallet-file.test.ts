import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWalletFileName, parseWalletFile } from "./wallet-file.ts";

const A = "0x1111111111111111111111111111111111111111";
const B = "0xabCDeF0123456789AbcdEf0123456789aBCDEF01";

describe("isWalletFileName", () => {
  it("accepts .csv and .txt in any case", () => {
    expect(isWalletFileName("wallets.csv")).toBe(true);
    expect(isWalletFileName("WALLETS.TXT")).toBe(true);
  });

  it("refuses other extensions", () => {
    expect(isWalletFileName("wallets.json")).toBe(false);
    expect(isWalletFileName("wallets.csv.exe")).toBe(false);
  });
});

describe("parseWalletFile", () => {
  it("reads address,amount lines", () => {
    expect(parseWalletFile(`${A},0.1\n${B},0.25\n`)).toEqual([
      { address: A, amount: "0.1" },
      { address: B, amount: "0.25" },
    ]);
  });

  it("tolerates a header line", () => {
    expect(parseWalletFile(`address,amount\n${A},0.1`)).toEqual([{ address: A, amount: "0.1" }]);
  });

  it("drops rows whose address is invalid", () => {
    expect(parseWalletFile(`0x1234,1\n${A},0.1\nhello,2\n0x${"g".repeat(40)},3`)).toEqual([
      { address: A, amount: "0.1" },
    ]);
  });

  it("skips blank lines and handles Windows line endings and a byte order mark", () => {
    expect(parseWalletFile(`\uFEFF${A},0.1\r\n\r\n  \r\n${B},0.2\r\n`)).toEqual([
      { address: A, amount: "0.1" },
      { address: B, amount: "0.2" },
    ]);
  });

  it("accepts spaces around the comma, spaces or tabs alone, and quoted fields", () => {
    expect(
      parseWalletFile(`${A} , 0.1\n${B} 0.2\n"${A}","0.3"\n${B}\t0.4`).map((w) => w.amount),
    ).toEqual(["0.1", "0.2", "0.3", "0.4"]);
  });

  it("reads semicolon lines with a decimal comma", () => {
    expect(parseWalletFile(`${A};0,5\n${B};0.25`)).toEqual([
      { address: A, amount: "0.5" },
      { address: B, amount: "0.25" },
    ]);
  });

  it("honours quoted fields that hold the delimiter", () => {
    expect(parseWalletFile(`address,amount,note\n${A},0.1,"team, round 1"\n${B},0.2,x`)).toEqual([
      { address: A, amount: "0.1" },
      { address: B, amount: "0.2" },
    ]);
  });

  it("keeps an address without amount with an empty amount", () => {
    expect(parseWalletFile(`${A}\n${B},`)).toEqual([
      { address: A, amount: "" },
      { address: B, amount: "" },
    ]);
  });
});

describe("parseWalletFile, for any list of rows", () => {
  const address = fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .map((bytes) => `0x${Buffer.from(bytes).toString("hex")}`);
  const amount = fc
    .tuple(fc.nat(1000), fc.nat(999_999))
    .map(([whole, fraction]) => `${whole}.${fraction}`);
  const rows = fc.array(fc.record({ address, amount }), { maxLength: 40 });

  it("reads back exactly what a CSV writer wrote, with any delimiter and line ending", () => {
    fc.assert(
      fc.property(
        rows,
        fc.constantFrom(",", "\t"),
        fc.constantFrom("\n", "\r\n"),
        (list, sep, eol) => {
          const text = list.map((r) => `${r.address}${sep}${r.amount}`).join(eol);
          expect(parseWalletFile(text)).toEqual(list);
        },
      ),
    );
  });

  it("never keeps a row whose first field is not an address", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 20 }), (lines) => {
        for (const wallet of parseWalletFile(lines.join("\n")))
          expect(wallet.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      }),
    );
  });
});
