import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort, profiles } from "@bundler/chain";
import { createPublicClient, http, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../config/env.ts";
import { localChainContext } from "./chain-context.ts";
import { attachLocalChain, type LocalChain, startLocalChain } from "./local-chain.ts";

// The first server process starts the chain in its data dir; others attach to it.
const masterKey = randomBytes(32);
let dataDir: string;
let owner: LocalChain;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "lb-attach-"));
  owner = await startLocalChain({
    dataDir,
    anvilPort: await getFreePort(),
    blockTime: 1,
    chainId: profiles.local.chainId,
    masterKey,
    databaseExisted: false,
    graduationFunds: parseEther("7"),
    builderMaxTxs: 50,
    builderMinTip: parseEther("0.0005"),
  });
});
afterAll(async () => {
  await owner?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Why attaching failed: its ConfigError's message. */
const refusal = async (attaching: Promise<LocalChain>): Promise<string> => {
  const error = await attaching.then(
    () => new Error("it attached"),
    (reason: Error) => reason,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error.message;
};

describe("attachLocalChain", () => {
  it("sees the contracts, launch signer and curve of the chain another process started on the data dir", async () => {
    const attached = await attachLocalChain({ dataDir, builderUrl: owner.builderUrl, masterKey });
    expect(attached.contracts).toEqual(owner.contracts);
    expect(attached.launchSignerKey).toBe(owner.launchSignerKey);
    expect(attached.graduationFunds).toBe(parseEther("7"));
    expect(attached.builderUrl).toBe(owner.builderUrl);

    // Its chain context reads the same launchpad through the same builder.
    const chain = localChainContext(profiles.local, attached, 50);
    const ownerChain = localChainContext(profiles.local, owner, 50);
    expect(await chain.launchFees()).toEqual(await ownerChain.launchFees());
  });

  it("leaves the chain running when the attached process stops", async () => {
    const attached = await attachLocalChain({ dataDir, builderUrl: owner.builderUrl, masterKey });
    await attached.stop();
    const client = createPublicClient({ transport: http(owner.builderUrl) });
    const code = await client.getCode({ address: owner.contracts.launchpad });
    expect(code?.length).toBeGreaterThan(2);
  });

  it("refuses a data dir without deployment.json, saying which file and what to do", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "lb-attach-empty-"));
    try {
      const message = await refusal(
        attachLocalChain({ dataDir: empty, builderUrl: owner.builderUrl, masterKey }),
      );
      expect(message).toBe(
        `LOCAL_BUILDER_URL is set but ${path.join(empty, "chain", "deployment.json")} does not exist: give this process the DATA_DIR of the process that started the local chain (it prints its builder URL when ready)`,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("refuses a master key other than the one the launchpad's signer comes from", async () => {
    const message = await refusal(
      attachLocalChain({ dataDir, builderUrl: owner.builderUrl, masterKey: randomBytes(32) }),
    );
    expect(message).toMatch(
      /^the local launchpad's launch signer is 0x[0-9a-fA-F]{40}, but this process's master key derives 0x[0-9a-fA-F]{40}: give every process the same master key/,
    );
  });

  it("refuses a builder URL where nothing answers, without printing more than its host", async () => {
    const port = await getFreePort();
    const message = await refusal(
      attachLocalChain({ dataDir, builderUrl: `http://127.0.0.1:${port}/secret-path`, masterKey }),
    );
    expect(message).toMatch(
      new RegExp(
        `^LOCAL_BUILDER_URL \\(http://127\\.0\\.0\\.1:${port}\\) does not answer: is the process that started the local chain running\\?`,
      ),
    );
    expect(message).not.toContain("secret-path");
  });
});
