// The users of the load bench, set up through the server's own API as the web app would: an
// access key each (generate-free), a launch-ready draft with its launch-fee payment started,
// a dispersal waiting for its funding, a mined transaction, and for the first few a launched
// bundle (paid and funded with anvil_setBalance, launched through the execute route), and a
// bumper on one of the launched tokens (at least one bundle is launched for it).
import { randomBytes } from "node:crypto";
import { rpcBatch } from "@bundler/chain";
import { launchStatusEvent } from "@bundler/shared";
import { io } from "socket.io-client";
import { type Address, getAddress, type Hex, parseEther, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

export interface LoadUser {
  key: string;
  /** A draft whose launch-fee payment is open (the payment dialog polls it). */
  draftId: string;
  /** The dispersal the disperser dialog polls (waiting for its funding). */
  dispersalId: string;
  /** A mined transaction (the sell dialog polls statuses). */
  txHash: Hex;
  /** What the create page's funding panel polls: 50 addresses. */
  fundingAddresses: Address[];
  /** A bundle this user launched (the wallet manager polls its balances); null for most. */
  bundleToken: Address | null;
  /** A bumper on one of the launched tokens (the bumper page polls its status). */
  bumperId: string;
}

/** The create page's funding panel reads this many addresses in one request. */
export const FUNDING_ADDRESSES = 50;

type Call = <T>(method: string, path: string, body?: unknown, key?: string) => Promise<T>;

/** The server's API at `url`, throwing on anything but 2xx. */
export const apiAt =
  (url: string): Call =>
  async <T>(method: string, path: string, body?: unknown, key?: string): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(key ? { "x-auth-key": key } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `check` every 300 ms until it answers something; throws after `timeoutMs`. */
export const until = async <T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 90_000,
) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await check();
    if (answer !== undefined) return answer;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(300);
  }
};

/** `count` tasks, at most `parallel` at once, answers in order. */
const pool = async <T>(count: number, parallel: number, task: (i: number) => Promise<T>) => {
  const answers: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) {
        const i = next++;
        answers[i] = await task(i);
      }
    }),
  );
  return answers;
};

const randomAddress = () => getAddress(toHex(randomBytes(20)));

/** A launch-ready draft (SPEC §5): logo, deployer, tip and `wallets` buying wallets. */
const draftInput = (wallets: number) => {
  const keyed = () => {
    const privateKey = generatePrivateKey();
    return { address: privateKeyToAccount(privateKey).address, privateKey };
  };
  return {
    tokenInfo: {
      name: "Load Cat",
      symbol: "LOAD",
      description: "made by the load bench",
      image:
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      preSale: "0.01",
    },
    deployerWallet: keyed(),
    walletConfig: {
      tip: "0.001",
      wallets: Array.from({ length: wallets }, () => ({ ...keyed(), buyValue: "0.01" })),
    },
  };
};

const setBalances = async (rpcUrl: string, entries: Array<[string, bigint]>) => {
  const answers = await rpcBatch(
    rpcUrl,
    entries.map(([address, value]) => ({
      method: "anvil_setBalance",
      params: [address, toHex(value)],
    })),
  );
  const refused = answers.find((a) => a.error);
  if (refused) throw new Error(`anvil_setBalance: ${refused.error?.message}`);
};

/** One mined 1-wei transfer per user, all sent at once from a fresh account straight to anvil. */
const minedTransfers = async (rpcUrl: string, to: Address[]): Promise<Hex[]> => {
  const sender = privateKeyToAccount(generatePrivateKey());
  await setBalances(rpcUrl, [[sender.address, parseEther("10")]]);
  const [gasPrice] = await rpcBatch<Hex>(rpcUrl, [{ method: "eth_gasPrice", params: [] }]);
  const raws = await Promise.all(
    to.map((address, nonce) =>
      sender.signTransaction({
        type: "legacy",
        chainId: 31337,
        nonce,
        to: address,
        value: 1n,
        gas: 21_000n,
        gasPrice: BigInt(gasPrice?.result ?? "0x3b9aca00") * 2n,
      }),
    ),
  );
  const sent = await rpcBatch<Hex>(
    rpcUrl,
    raws.map((raw) => ({ method: "eth_sendRawTransaction", params: [raw] })),
  );
  const hashes = sent.map((answer) => {
    if (!answer.result) throw new Error(`transfer refused: ${answer.error?.message}`);
    return answer.result;
  });
  await until("the bench's transfers to be mined", async () => {
    const receipts = await rpcBatch<unknown>(
      rpcUrl,
      hashes.map((hash) => ({ method: "eth_getTransactionReceipt", params: [hash] })),
    );
    return receipts.every((r) => r.result) ? true : undefined;
  });
  return hashes;
};

/** A launched bundle for `key`: a draft paid and funded with anvil_setBalance, then executed. */
export const launchBundle = async (
  url: string,
  rpcUrl: string,
  key: string,
  wallets: number,
): Promise<Address> => {
  const api = apiAt(url);
  const { draftId } = await api<{ draftId: string }>(
    "POST",
    "/api/draft/create",
    draftInput(wallets),
    key,
  );
  const payment = await api<{ paymentAddress: string; paymentAmount: string }>(
    "POST",
    `/api/draft/${draftId}/payment`,
    undefined,
    key,
  );
  await setBalances(rpcUrl, [[payment.paymentAddress, parseEther(payment.paymentAmount)]]);
  await until(`the launch fee of draft ${draftId}`, async () => {
    const status = await api<{ isPaid: boolean }>(
      "GET",
      `/api/draft/${draftId}/payment/status`,
      undefined,
      key,
    );
    return status.isPaid || undefined;
  });
  const { plan } = await api<{ plan: { funding: Array<{ address: string; required: string }> } }>(
    "GET",
    `/api/draft/${draftId}/summary`,
    undefined,
    key,
  );
  await setBalances(
    rpcUrl,
    plan.funding.map(({ address, required }) => [
      address,
      parseEther(required) + parseEther("0.01"),
    ]),
  );
  // The Bundle Terminal's lines, so a launch that fails says why.
  const lines: string[] = [];
  const socket = io(url, { auth: { key }, transports: ["websocket"] });
  socket.on(launchStatusEvent(key), ({ message }: { message: string }) => lines.push(message));
  await new Promise((resolve) => socket.once("connect", () => resolve(undefined)));
  try {
    await api("POST", `/api/draft/${draftId}/execute`, undefined, key);
    return await until(`the launch of draft ${draftId}`, async () => {
      const { draft } = await api<{
        draft: { status: string; launch: { tokenAddress: Address } | null };
      }>("GET", `/api/draft/${draftId}`, undefined, key);
      if (draft.status === "paid")
        throw new Error(`the launch of draft ${draftId} failed: ${lines.slice(-3).join(" | ")}`);
      return draft.status === "executed" ? draft.launch?.tokenAddress : undefined;
    });
  } finally {
    socket.close();
  }
};

/**
 * `users` users on the server at `url` (anvil at `rpcUrl`), the first `bundles` of them with a
 * launched bundle of `bundleWallets` wallets. Answers them and how long each stage took.
 *
 * @example
 * const { users } = await createLoadUsers(server.url, anvilUrl, { users: 500, bundles: 5 });
 */
export const createLoadUsers = async (
  url: string,
  rpcUrl: string,
  {
    users,
    bundles,
    bundleWallets = 10,
    parallel = 8,
  }: { users: number; bundles: number; bundleWallets?: number; parallel?: number },
): Promise<{ users: LoadUser[]; stages: Record<string, number> }> => {
  const api = apiAt(url);
  const stages: Record<string, number> = {};
  let began = performance.now();
  const stage = (name: string) => {
    stages[name] = (performance.now() - began) / 1000;
    began = performance.now();
  };

  const partial = await pool(users, parallel, async (i) => {
    const { key } = await api<{ key: string }>("POST", "/api/auth/key/generate-free", {
      deviceId: `load-bench-${randomBytes(8).toString("hex")}-${i}`,
      userAgent: "load bench",
    });
    const { draftId } = await api<{ draftId: string }>(
      "POST",
      "/api/draft/create",
      draftInput(3),
      key,
    );
    await api("POST", `/api/draft/${draftId}/payment`, undefined, key);
    const dispersal = await api<{ dispersalId: string }>(
      "POST",
      "/api/wallets/disperse",
      {
        wallets: [randomAddress(), randomAddress(), randomAddress()],
        amounts: ["0.01", "0.02", "0.03"],
        antiBubblemaps: false,
      },
      key,
    );
    return { key, draftId, dispersalId: dispersal.dispersalId };
  });
  stage("keys, drafts, payments, dispersals");

  const fundingAddresses = partial.map(() =>
    Array.from({ length: FUNDING_ADDRESSES }, randomAddress),
  );
  const hashes = await minedTransfers(
    rpcUrl,
    fundingAddresses.map((addresses) => addresses[0] as Address),
  );
  stage("mined transfers");

  // One launch at a time: two launches priced against the same head both expect the token at
  // the launchpad's next CREATE address, and the second one's buys would hit the first's token.
  const tokens = await pool(Math.max(1, Math.min(bundles, users)), 1, (i) =>
    launchBundle(url, rpcUrl, partial[i]?.key as string, bundleWallets),
  );
  stage("launched bundles");

  const bumperIds = await pool(users, parallel, async (i) => {
    const { bumper } = await api<{ bumper: { id: string } }>(
      "POST",
      "/api/bumper/generate",
      { targetToken: tokens[i % tokens.length], duration: 60, interval: 10, buySize: "0.01" },
      partial[i]?.key,
    );
    return bumper.id;
  });
  stage("bumpers");

  return {
    users: partial.map((user, i) => ({
      ...user,
      txHash: hashes[i] as Hex,
      fundingAddresses: fundingAddresses[i] as Address[],
      bundleToken: i < bundles ? (tokens[i] ?? null) : null,
      bumperId: bumperIds[i] as string,
    })),
    stages,
  };
};
