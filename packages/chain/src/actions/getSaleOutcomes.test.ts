import { LaunchpadManagerArtifact } from "@bundler/contracts";
import {
  type Abi,
  encodeAbiParameters,
  encodeEventTopics,
  erc20Abi,
  type Hex,
  parseAbi,
  parseAbiParameters,
} from "viem";
import { describe, expect, it } from "vitest";
import { type SaleReceipt, saleOutcomeOf } from "./getSaleOutcomes.ts";

const SELLER = "0x1111111111111111111111111111111111111111";
const LAUNCHPAD = "0x2222222222222222222222222222222222222222";
const ROUTER = "0x3333333333333333333333333333333333333333";
const TOKEN = "0x4444444444444444444444444444444444444444";
const PAIR = "0x5555555555555555555555555555555555555555";
const WETH = "0x6666666666666666666666666666666666666666";
const TOKENS = 5_000n * 10n ** 18n;

const transfer = (from: Hex, to: Hex, value: bigint) => ({
  address: TOKEN as Hex,
  topics: encodeEventTopics({ abi: erc20Abi, eventName: "Transfer", args: { from, to } }) as Hex[],
  data: encodeAbiParameters(parseAbiParameters("uint256"), [value]),
});

const tokenSale = (account: Hex, cost: bigint, fee: bigint) => ({
  address: LAUNCHPAD as Hex,
  topics: encodeEventTopics({
    abi: LaunchpadManagerArtifact.abi as Abi,
    eventName: "TokenSale",
  }) as Hex[],
  data: encodeAbiParameters(
    parseAbiParameters("address, address, uint256, uint256, uint256, uint256, uint256, uint256"),
    [TOKEN, account, 1n, TOKENS, cost, fee, 0n, 0n],
  ),
});

const withdrawal = (src: Hex, wad: bigint) => ({
  address: WETH as Hex,
  topics: encodeEventTopics({
    abi: parseAbi(["event Withdrawal(address indexed src, uint256 wad)"]),
    eventName: "Withdrawal",
    args: { src },
  }) as Hex[],
  data: encodeAbiParameters(parseAbiParameters("uint256"), [wad]),
});

const receipt = (to: Hex, logs: SaleReceipt["logs"], status: Hex = "0x1"): SaleReceipt => ({
  status,
  from: SELLER,
  to,
  logs,
});

describe("a sale's outcome from its receipt", () => {
  it("on the curve: the seller's tokens sent and the launchpad's proceeds less its fee", () => {
    const outcome = saleOutcomeOf(
      receipt(LAUNCHPAD, [
        transfer(SELLER, LAUNCHPAD, TOKENS),
        tokenSale(SELLER, 10n ** 17n, 10n ** 15n),
      ]),
    );
    expect(outcome).toEqual({ tokens: TOKENS, bnb: 99n * 10n ** 15n });
  });

  it("on the DEX: the seller's tokens sent and the WETH the router unwrapped for it", () => {
    const outcome = saleOutcomeOf(
      receipt(ROUTER, [transfer(SELLER, PAIR, TOKENS), withdrawal(ROUTER, 7n * 10n ** 16n)]),
    );
    expect(outcome).toEqual({ tokens: TOKENS, bnb: 7n * 10n ** 16n });
  });

  it("on the DEX, of a tax token: the seller's tokens sent (its tax too) and only the router's last unwrap, the seller's, not the tax dispatch's before it (tax guide §4)", () => {
    const tax = TOKENS / 20n;
    const outcome = saleOutcomeOf(
      receipt(ROUTER, [
        transfer(TOKEN as Hex, PAIR, 10n ** 20n),
        withdrawal(ROUTER, 3n * 10n ** 15n),
        transfer(SELLER, TOKEN as Hex, tax),
        transfer(SELLER, PAIR, TOKENS - tax),
        withdrawal(ROUTER, 7n * 10n ** 16n),
      ]),
    );
    expect(outcome).toEqual({ tokens: TOKENS, bnb: 7n * 10n ** 16n });
  });

  it("is none for a transaction that moved none of the sender's tokens, such as a buy", () => {
    expect(saleOutcomeOf(receipt(LAUNCHPAD, [transfer(LAUNCHPAD, SELLER, TOKENS)]))).toBeNull();
    expect(saleOutcomeOf(receipt(TOKEN, []))).toBeNull();
  });

  it("is none for a reverted transaction", () => {
    expect(
      saleOutcomeOf(receipt(LAUNCHPAD, [transfer(SELLER, LAUNCHPAD, TOKENS)], "0x0")),
    ).toBeNull();
  });

  it("leaves out another account's sale in the same receipt", () => {
    const other = "0x7777777777777777777777777777777777777777";
    const outcome = saleOutcomeOf(
      receipt(LAUNCHPAD, [transfer(SELLER, LAUNCHPAD, TOKENS), tokenSale(other, 10n ** 17n, 0n)]),
    );
    expect(outcome).toEqual({ tokens: TOKENS, bnb: 0n });
  });
});
