import { parseGwei } from "viem";
import { describe, expect, it } from "vitest";
import type { BuilderEndpoint } from "../profiles.ts";
import { checkLaunchBuilders } from "./checkLaunchBuilders.ts";

const builder = (name: string, maxTxs: number, minGasPrice?: bigint): BuilderEndpoint => ({
  name,
  url: "https://builder.example",
  tipAddress: "0x000000000000000000000000000000000000bEEF",
  maxTxs,
  ...(minGasPrice === undefined ? {} : { minGasPrice }),
});

describe("checkLaunchBuilders", () => {
  it("answers the builders that take a create, a buy and a tip at the floor's price", () => {
    const able = checkLaunchBuilders({
      builders: [builder("48club", 5), builder("nodereal", 50, parseGwei("0.1"))],
      gasPrice: parseGwei("0.05"),
    });
    expect(able.map((b) => b.name)).toEqual(["48club"]);
  });

  it("counts a floor equal to the price as met", () => {
    const able = checkLaunchBuilders({
      builders: [builder("nodereal", 50, parseGwei("0.05"))],
      gasPrice: parseGwei("0.05"),
    });
    expect(able).toHaveLength(1);
  });

  it("refuses, naming each builder's cap and floor, when none can take a launch", () => {
    expect(() =>
      checkLaunchBuilders({
        builders: [
          builder("48club", 5, parseGwei("1")),
          builder("blockrazor", 2),
          builder("nodereal", 50, parseGwei("0.1")),
        ],
        gasPrice: parseGwei("0.05"),
      }),
    ).toThrow(
      "no configured builder can take a launch (the create, one buy and a tip: 3 transactions, at the chain's gas price floor of 0.05 gwei): 48club takes 5 transactions at 1 gwei or more; blockrazor takes 2 transactions; nodereal takes 50 transactions at 0.1 gwei or more",
    );
  });

  it("leaves a network without builders to the preflight", () => {
    expect(checkLaunchBuilders({ builders: [], gasPrice: 1n })).toEqual([]);
  });
});
