import { TaxTokenArtifact } from "@bundler/contracts";
import {
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  erc20Abi,
  type Hex,
  parseAbi,
  parseEther,
} from "viem";
import { describe, expect, it } from "vitest";
import { linesOfReceipt, type ReceiptLike } from "./pnl-lines.ts";

const token = "0x1111111111111111111111111111111111111111" as Address;
const seller = "0x2222222222222222222222222222222222222222" as Address;
const pair = "0x3333333333333333333333333333333333333333" as Address;
const router = "0x4444444444444444444444444444444444444444" as Address;
const weth = "0x5555555555555555555555555555555555555555" as Address;
const launchpad = "0x6666666666666666666666666666666666666666" as Address;
const wethAbi = parseAbi(["event Withdrawal(address indexed src, uint256 wad)"]);

const transfer = (from: Address, to: Address, value: bigint, logIndex: number) => ({
  address: token,
  topics: encodeEventTopics({ abi: erc20Abi, eventName: "Transfer", args: { from, to } }) as [
    Hex,
    ...Hex[],
  ],
  data: encodeAbiParameters([{ type: "uint256" }], [value]),
  logIndex,
});
const withdrawal = (wad: bigint, logIndex: number) => ({
  address: weth,
  topics: encodeEventTopics({ abi: wethAbi, eventName: "Withdrawal", args: { src: router } }) as [
    Hex,
    ...Hex[],
  ],
  data: encodeAbiParameters([{ type: "uint256" }], [wad]),
  logIndex,
});
const dispatched = (logIndex: number) => ({
  address: token,
  topics: encodeEventTopics({ abi: TaxTokenArtifact.abi, eventName: "FeeDispatched" }) as [
    Hex,
    ...Hex[],
  ],
  data: encodeAbiParameters(
    Array.from({ length: 6 }, () => ({ type: "uint256" })),
    [1n, 2n, 3n, 4n, 5n, 6n],
  ),
  logIndex,
});

const context = {
  bundle: {
    token: token.toLowerCase(),
    ownerId: "owner",
    draftId: "draft",
    launchBlock: 1n,
    wallets: [seller.toLowerCase()],
    deployer: null,
    tipPayer: null,
  },
  launchpad,
  weth,
  blockTime: new Date(0),
};

const receipt = (logs: ReceiptLike["logs"]): ReceiptLike => ({
  transactionHash: `0x${"ab".repeat(32)}`,
  from: seller,
  to: router,
  status: "success",
  gasUsed: 100_000n,
  effectiveGasPrice: 1_000_000_000n,
  blockNumber: 10n,
  logs,
});

describe("the P&L ledger's lines of a DEX sale", () => {
  it("of a tax token: the sale is the seller's own unwrap, not the tax dispatch's before it, and a tax line holds the tokens the token kept from the seller (tax guide §4)", () => {
    const tax = parseEther("50");
    const rest = parseEther("950");
    const lines = linesOfReceipt(
      receipt([
        // The dispatch inside the sale: the token sells its gathered tax first.
        transfer(token, pair, parseEther("300"), 0),
        withdrawal(parseEther("0.002"), 1),
        dispatched(2),
        transfer(seller, token, tax, 3),
        transfer(seller, pair, rest, 4),
        withdrawal(parseEther("0.01"), 5),
      ]),
      context,
      { purpose: "bundle-sell" },
    );
    const byKind = Object.fromEntries(lines.map((line) => [line.kind, line]));
    expect(byKind.sale).toMatchObject({
      bnb: parseEther("0.01").toString(),
      tokens: (tax + rest).toString(),
    });
    expect(byKind.tax).toMatchObject({
      wallet: seller.toLowerCase(),
      bnb: "0",
      tokens: tax.toString(),
      role: "bundle",
    });
  });

  it("of a plain token: one sale line and no tax line", () => {
    const lines = linesOfReceipt(
      receipt([transfer(seller, pair, parseEther("1000"), 0), withdrawal(parseEther("0.01"), 1)]),
      context,
      { purpose: "bundle-sell" },
    );
    expect(lines.map((line) => line.kind)).toEqual(["gas", "sale"]);
  });
});
