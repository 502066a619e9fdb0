import { randomBytes } from "node:crypto";
import { MULTICALL3_ADDRESS, Multicall3Artifact } from "@bundler/contracts";
import fc from "fast-check";
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  encodeFunctionResult,
  erc20Abi,
  type Hex,
  toHex,
} from "viem";
import { describe, expect, it } from "vitest";
import {
  type Aggregate3Call,
  decodeAggregate3,
  encodeAggregate3,
  ethBalanceCall,
  tokenBalanceCall,
} from "./aggregate3.ts";

const address = () => toHex(randomBytes(20)) as Address;

const callArbitrary = fc.record({
  target: fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => toHex(b) as Address),
  callData: fc.uint8Array({ maxLength: 100 }).map((b) => toHex(b)),
  allowFailure: fc.boolean(),
});

/** What Multicall3 answers for these results, encoded by viem. */
const answer = (results: Array<{ success: boolean; returnData: Hex }>): Hex =>
  encodeFunctionResult({
    abi: Multicall3Artifact.abi,
    functionName: "aggregate3",
    result: results,
  });

describe("aggregate3's hand encoding", () => {
  it("encodes the same calldata as viem for any calls", () => {
    fc.assert(
      fc.property(fc.array(callArbitrary, { maxLength: 20 }), (calls: Aggregate3Call[]) => {
        expect(encodeAggregate3(calls)).toBe(
          encodeFunctionData({
            abi: Multicall3Artifact.abi,
            functionName: "aggregate3",
            args: [
              calls.map((c) => ({
                target: c.target,
                allowFailure: c.allowFailure ?? false,
                callData: c.callData,
              })),
            ],
          }),
        );
      }),
    );
  });

  it("decodes what viem decodes for any results", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            success: fc.boolean(),
            returnData: fc.uint8Array({ maxLength: 100 }).map((b) => toHex(b)),
          }),
          { maxLength: 20 },
        ),
        (results) => {
          const data = answer(results);
          expect(decodeAggregate3(data)).toEqual(
            decodeFunctionResult({
              abi: Multicall3Artifact.abi,
              functionName: "aggregate3",
              data,
            }).map((r) => ({ success: r.success, returnData: r.returnData })),
          );
        },
      ),
    );
  });

  it("encodes getEthBalance and balanceOf as viem does", () => {
    const owner = address();
    const token = address();
    expect(ethBalanceCall(owner)).toEqual({
      target: MULTICALL3_ADDRESS,
      callData: encodeFunctionData({
        abi: Multicall3Artifact.abi,
        functionName: "getEthBalance",
        args: [owner],
      }),
    });
    expect(tokenBalanceCall(token, owner)).toEqual({
      target: token,
      callData: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [owner] }),
    });
  });

  it("refuses an empty or cut-short answer instead of decoding garbage", () => {
    expect(() => decodeAggregate3("0x")).toThrow(/no results/);
    const data = answer([{ success: true, returnData: "0x1234" }]);
    expect(() => decodeAggregate3(data.slice(0, -64) as Hex)).toThrow(/malformed/);
  });

  it("refuses a target that is not an address", () => {
    expect(() =>
      encodeAggregate3([{ target: "0x1234" as Address, callData: "0x", allowFailure: false }]),
    ).toThrow(/not an address/);
  });
});
