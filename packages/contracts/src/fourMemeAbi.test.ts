import {
  type Abi,
  type AbiEvent,
  type AbiFunction,
  toEventSelector,
  toFunctionSelector,
} from "viem";
import { describe, expect, it } from "vitest";
import { LaunchpadHelperArtifact, LaunchpadManagerArtifact } from "./generated/artifacts.ts";

// Literal values from reference/bsc-launchpad-and-builders.md (four.meme's mainnet ABI).
const managerFunctions = [
  ["createToken(bytes args, bytes signature)", "0x519ebb10"],
  ["buyTokenAMAP(address token, uint256 funds, uint256 minAmount)", "0x87f27655"],
  ["buyTokenAMAP(address token, address to, uint256 funds, uint256 minAmount)", "0x7f79f6df"],
  ["buyToken(address token, uint256 amount, uint256 maxFunds)", "0xe671499b"],
  ["sellToken(address token, uint256 amount)", "0xf464e7db"],
  // The router variant: the reference gives its signature, keccak its selector.
  [
    "sellToken(uint256 origin, address token, uint256 amount, uint256 minFunds, uint256 feeRate, address feeRecipient)",
    "0x06e7b98f",
  ],
] as const;

const helperFunctions = [
  [
    "getTokenInfo(address token) returns (uint256 version, address tokenManager, address quote, uint256 lastPrice, uint256 tradingFeeRate, uint256 minTradingFee, uint256 launchTime, uint256 offers, uint256 maxOffers, uint256 funds, uint256 maxFunds, bool liquidityAdded)",
    "0x1f69565f",
  ],
  [
    "tryBuy(address token, uint256 amount, uint256 funds) returns (address tokenManager, address quote, uint256 estimatedAmount, uint256 estimatedCost, uint256 estimatedFee, uint256 amountMsgValue, uint256 amountApproval, uint256 amountFunds)",
    "0xe21b103a",
  ],
  [
    "trySell(address token, uint256 amount) returns (address tokenManager, address quote, uint256 funds, uint256 fee)",
    "0xc6f43e8c",
  ],
] as const;

const trade =
  "address token, address account, uint256 price, uint256 amount, uint256 cost, uint256 fee, uint256 offers, uint256 funds";
const events = [
  [
    "TokenCreate(address creator, address token, uint256 requestId, string name, string symbol, uint256 totalSupply, uint256 launchTime, uint256 launchFee)",
    "0x396d5e902b675b032348d3d2e9517ee8f0c4a926603fbc075d3d282ff00cad20",
  ],
  [`TokenPurchase(${trade})`, null],
  [`TokenSale(${trade})`, null],
  ["TradeStop(address token)", null],
  ["LiquidityAdded(address base, uint256 offers, address quote, uint256 funds)", null],
] as const;

const nameOf = (signature: string) => signature.slice(0, signature.indexOf("("));
const params = (list: readonly { type: string; name?: string }[]) =>
  list.map((p) => `${p.type} ${p.name}`).join(", ");
const eventsOf = (abi: Abi) => abi.filter((item): item is AbiEvent => item.type === "event");
const functionsOf = (abi: Abi) =>
  abi.filter((item): item is AbiFunction => item.type === "function");

describe("LaunchpadManager speaks four.meme's TokenManager2 ABI", () => {
  it.each(managerFunctions)(
    "%s has selector %s in the reference and in our ABI",
    (signature, selector) => {
      expect(toFunctionSelector(signature)).toBe(selector);
      const ours = functionsOf(LaunchpadManagerArtifact.abi).filter(
        (f) => toFunctionSelector(f) === selector,
      );
      expect(ours).toHaveLength(1);
      expect(`${ours[0]?.name}(${params(ours[0]?.inputs ?? [])})`).toBe(signature);
    },
  );

  it.each(events)(
    "event %s has the reference's topic0, no indexed arguments",
    (signature, topic0) => {
      const event = eventsOf(LaunchpadManagerArtifact.abi).find(
        (e) => e.name === nameOf(signature),
      );
      expect(event).toBeDefined();
      if (!event) return;
      expect(`${event.name}(${params(event.inputs)})`).toBe(signature);
      expect(event.inputs.some((input) => input.indexed)).toBe(false);
      expect(toEventSelector(event)).toBe(toEventSelector(signature));
      if (topic0) expect(toEventSelector(event)).toBe(topic0);
    },
  );

  it("createToken and both buys are payable, sellToken is not", () => {
    const mutability = (name: string) =>
      new Set(
        functionsOf(LaunchpadManagerArtifact.abi)
          .filter((f) => f.name === name)
          .map((f) => f.stateMutability),
      );
    expect(mutability("createToken")).toEqual(new Set(["payable"]));
    expect(mutability("buyTokenAMAP")).toEqual(new Set(["payable"]));
    expect(mutability("buyToken")).toEqual(new Set(["payable"]));
    expect(mutability("sellToken")).toEqual(new Set(["nonpayable"]));
  });
});

describe("LaunchpadHelper speaks four.meme's TokenManagerHelper3 ABI", () => {
  it.each(helperFunctions)(
    "%s has the reference's selector and return tuple",
    (signature, selector) => {
      expect(toFunctionSelector(signature)).toBe(selector);
      const ours = functionsOf(LaunchpadHelperArtifact.abi).find(
        (f) => toFunctionSelector(f) === selector,
      );
      expect(ours?.stateMutability).toBe("view");
      expect(
        `${ours?.name}(${params(ours?.inputs ?? [])}) returns (${params(ours?.outputs ?? [])})`,
      ).toBe(signature);
    },
  );
});
