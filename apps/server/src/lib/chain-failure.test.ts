import { InvalidParamsRpcError, RpcRequestError } from "viem";
import { describe, expect, it } from "vitest";
import { ChainReadError, chainFailure } from "./chain-failure.ts";

const nodeSaid = (message: string) =>
  new InvalidParamsRpcError(
    new RpcRequestError({
      body: {},
      url: "http://node.example/key",
      error: { code: -32602, message },
    }),
  );

describe("a chain failure told from the server's own", () => {
  it("is a node that keeps no state for the block asked (anvil's words after a restart)", () => {
    expect(
      chainFailure(nodeSaid("BlockOutOfRangeError: block height is 6097 but requested was 6094")),
    ).toBe("the chain node could not serve that block (it is behind, or keeps no state for it)");
  });

  it("is a pruned node's missing trie node", () => {
    expect(chainFailure(nodeSaid("missing trie node 1a2b (path )"))).toMatch(
      /^the chain node could not serve/,
    );
  });

  it("is not a revert or any other error of the request itself", () => {
    expect(chainFailure(nodeSaid("execution reverted: GW"))).toBeNull();
    expect(chainFailure(new Error("header not found"))).toBeNull();
  });

  it("is a read the node answered without what was asked, however deep in the causes", () => {
    const unread = new ChainReadError("could not read what became of sell:1");
    expect(chainFailure(unread)).toBe("the chain node did not answer a read");
    expect(chainFailure(new Error("sell:1~1: the retry waits", { cause: unread }))).toBe(
      "the chain node did not answer a read",
    );
  });

  it("names no URL, which can carry the RPC's key", () => {
    expect(chainFailure(nodeSaid("header not found"))).not.toMatch(/node\.example|key/);
  });
});
