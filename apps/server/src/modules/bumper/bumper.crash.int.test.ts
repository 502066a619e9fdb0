import type { Bump, Bumper, BumperWallet } from "@bundler/shared";
import { type Address, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BSC_BLOCK_SECONDS, crashServer, launchThrough } from "../../test/crash-server.ts";

/**
 * The real server, its bumper minute shortened to a second, killed (SIGKILL, at failpoints) in
 * the middle of a bump (its bundle recorded but not sent; sent but not yet seen landing; its
 * BNB's move recorded but not broadcast), then started again: each bump trades once, moves
 * once, and every wei the bumper was funded with is accounted for.
 */
const FEE = parseEther("0.01");
const crashed = crashServer(
  "bumper-crash",
  {
    LAUNCH_FEE_BNB: "0.01",
    BUMPER_MINUTE_SECONDS: "1",
    BLOCK_TIME_SECONDS: String(BSC_BLOCK_SECONDS),
  },
  {
    postgres: process.env.DATABASE_URL,
  },
);
const { api, waitFor, client, setBalance, start } = crashed;
const server = {
  stop: () => crashed.process.stop(),
  exited: () => crashed.process.exited(),
};

/** A token launched through the server itself (draft, fee, execute). */
let token: Address;

beforeAll(async () => {
  await start();
  const launched = await launchThrough(crashed, 1, FEE);
  token = launched.token;
}, 240_000);

afterAll(() => crashed.remove());

const bumperOf = async (id: string) => {
  const shown = await api("GET", `/api/bumper/${id}`);
  return { bumper: shown.body.bumper as Bumper, bumps: shown.body.bumps as Bump[] };
};

describe("a server killed in the middle of a bump", () => {
  it.each([
    ["its bundle was recorded, before it went out", "bumper.recorded"],
    ["its bundle went out, before it was seen landing", "bumper.submitted"],
    ["its BNB's move was recorded, before it was broadcast", "tx.recorded"],
  ])(
    "trades and moves each bump once when killed after %s",
    async (_moment, point) => {
      await server.stop();
      await start(point);
      // A completed bumper of the token frees it for a new one: each trial has its own.
      const generated = await api("POST", "/api/bumper/generate", {
        targetToken: token,
        interval: 1,
        duration: 2,
        buySize: 0.01,
      });
      expect(generated.status).toBe(200);
      const bumper = generated.body.bumper as Bumper;
      const funded = parseEther("0.1");
      await setBalance(bumper.address as Address, funded);
      expect((await api("POST", `/api/bumper/${bumper.id}/start`)).status).toBe(200);
      expect(await server.exited()).toBe("SIGKILL");

      await start();
      await waitFor(
        async () => (await bumperOf(bumper.id)).bumper.status === "completed",
        "the bumper to complete",
        120_000,
      );
      const { bumper: done, bumps } = await bumperOf(bumper.id);
      expect(done.bumpsCompleted).toBe(2);
      expect(bumps).toHaveLength(2);
      const wallets = (await api("GET", `/api/bumper/${bumper.id}/wallets`)).body
        .wallets as BumperWallet[];
      expect(wallets).toHaveLength(3);
      // One buy per wallet: a bump's wallet sent buy, approval, sell, tip and move, no more.
      for (const wallet of wallets.slice(0, 2))
        expect(await client().getTransactionCount({ address: wallet.address as Address })).toBe(5);
      let left = 0n;
      for (const wallet of wallets)
        left += await client().getBalance({ address: wallet.address as Address });
      const gas = bumps.reduce((sum, b) => sum + parseEther(b.gas), 0n);
      const traded = bumps.reduce((sum, b) => sum + parseEther(b.bought) - parseEther(b.sold), 0n);
      expect(left + gas + traded).toBe(funded);
    },
    300_000,
  );
});
