import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, vi } from "vitest";
import type { ChainContext } from "../../lib/chain-context.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller, draftInput, type ExtraConfig, payerOn } from "../../test/drafts-api.ts";
import { freshWatcher } from "../../test/payment-watcher.ts";

const FEE = parseEther("0.01");

/**
 * A test chain and an app taking a 0.01 BNB launch fee, for one test file (started before its
 * tests, stopped after), two users' keys, and the helpers that make paid drafts to launch.
 * `chain`, `app`, `key`, `otherKey` and `userId` are getters: read them inside a test.
 */
export const useLaunchTestbed = ({
  slowBuilderMaxTxs = 0,
  bundleTimeoutMs,
  chainAs = (chain) => chain,
}: {
  /** Run a second builder ("local-slow") with this cap. */
  slowBuilderMaxTxs?: number;
  /** How long each builder has to answer a bundle, ms. */
  bundleTimeoutMs?: number;
  /** The chain as the app sees it (builders named as on BSC, say), made when the chain starts. */
  chainAs?: (chain: ChainContext) => ChainContext;
} = {}) => {
  let testChain: TestChain;
  let chain: ChainContext;
  let app: TestApp;
  let key: string;
  let otherKey: string;
  let userId: string;
  const treasury = privateKeyToAccount(generatePrivateKey()).address;
  const masterKey = Buffer.alloc(32, 7);

  const rpc = (method: string, params: unknown[]) => testChain.rpc(method, params);
  const setBalance = (address: Address, value: bigint) =>
    rpc("anvil_setBalance", [address, `0x${value.toString(16)}`]);

  beforeAll(async () => {
    testChain = await startTestChain(masterKey, { slowBuilderMaxTxs });
    chain = chainAs({ ...testChain.chain, ...(bundleTimeoutMs ? { bundleTimeoutMs } : {}) });
    app = await createTestApp({
      chain,
      masterKey,
      launchFeeBnb: "0.01",
      treasuryAddress: treasury,
      bodyLimitBytes: 2 * 1024 * 1024,
    });
    key = await app.auth.mintKey("user");
    otherKey = await app.auth.mintKey("user");
    userId = (await app.auth.authenticate(key))?.id ?? "";
  });
  afterAll(async () => {
    await app?.close();
    await testChain?.stop();
  });

  const call = apiCaller(
    () => app,
    () => key,
  );

  /** The terminal lines `run` sends to the user. */
  const captureTerminal = async (run: () => Promise<void>): Promise<string[]> => {
    const emitted: string[] = [];
    const spy = vi
      .spyOn(app.realtime, "emitToUser")
      .mockImplementation(async (_user, _kind, { message }) => {
        emitted.push(message);
      });
    try {
      await run();
    } finally {
      spy.mockRestore();
    }
    return emitted;
  };

  const newDraft = async (walletCount = 3, extraConfig: ExtraConfig = () => ({})) => {
    const input = draftInput(walletCount, extraConfig);
    const { body } = await call("POST", "/api/draft/create", input);
    return { id: body.draftId as string, input };
  };

  const watcher = () => freshWatcher(app, chain, treasury);

  /** A draft whose launch fee is paid (the watcher credited it). */
  const paidDraft = async (walletCount = 3, extraConfig: ExtraConfig = () => ({})) => {
    const draft = await newDraft(walletCount, extraConfig);
    const address = (await call("POST", `/api/draft/${draft.id}/payment`)).body
      .paymentAddress as Address;
    await (await payerOn(testChain)).pay(address, FEE);
    await watcher().tick();
    return draft;
  };

  return {
    get testChain() {
      return testChain;
    },
    get chain() {
      return chain;
    },
    get app() {
      return app;
    },
    get key() {
      return key;
    },
    get otherKey() {
      return otherKey;
    },
    get userId() {
      return userId;
    },
    rpc,
    setBalance,
    call,
    captureTerminal,
    newDraft,
    paidDraft,
  };
};
