import { randomBytes } from "node:crypto";
import { rpcBatch } from "@bundler/chain";
import { ADMIN_API, ADMIN_MAX_PAGE_SIZE, type AdminUserRow, type Dispersal } from "@bundler/shared";
import { type Address, createWalletClient, http, parseEther, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { waitForTransactionReceipt } from "viem/actions";
import { apiAt, launchBundle, until } from "../bench/lib/load-users.ts";
import { sentEventsIn, type Tally, tally, type Watcher, watch } from "./realtime/deliveries.ts";
import { type Deployment, deploy } from "./realtime/deployment.ts";
import { type Figure, type Mode, type Row, zero } from "./row.ts";

/** How many users connect at once, and how many of them launch or disperse meanwhile. */
const SIZES: Record<Mode, { users: number; launches: number; dispersals: number }> = {
  full: { users: 20, launches: 5, dispersals: 5 },
  reduced: { users: 5, launches: 1, dispersals: 1 },
};

/** A user as the web app makes one: a free key for a device. */
const newUser = async (url: string, deviceId: string) =>
  (
    await apiAt(url)<{ key: string }>("POST", "/api/auth/key/generate-free", {
      deviceId,
      userAgent: "realtime row",
    })
  ).key;

/** The users' ids, read from the admin's user list by device. */
const userIdsByDevice = async (url: string, adminKey: string): Promise<Map<string, string>> => {
  const ids = new Map<string, string>();
  for (let page = 1; ; page++) {
    const { users, pagination } = await apiAt(url)<{
      users: AdminUserRow[];
      pagination: { pages: number };
    }>("GET", `${ADMIN_API}/users?page=${page}&limit=${ADMIN_MAX_PAGE_SIZE}`, undefined, adminKey);
    for (const user of users) if (user.deviceId) ids.set(user.deviceId, user._id);
    if (page >= pagination.pages) return ids;
  }
};

/** A dispersal to three fresh wallets, paid by an outside wallet, followed to completion. */
const disperse = async (url: string, rpcUrl: string, key: string, antiBubblemaps: boolean) => {
  const api = apiAt(url);
  const wallets = [0, 1, 2].map(() => privateKeyToAccount(generatePrivateKey()).address);
  const created = await api<Dispersal>(
    "POST",
    "/api/wallets/disperse",
    { wallets, amounts: ["0.011", "0.012", "0.013"], antiBubblemaps },
    key,
  );
  const payer = privateKeyToAccount(generatePrivateKey());
  const [funded] = await rpcBatch(rpcUrl, [
    { method: "anvil_setBalance", params: [payer.address, toHex(parseEther("10"))] },
  ]);
  if (funded?.error) throw new Error(`anvil_setBalance: ${funded.error.message}`);
  const wallet = createWalletClient({ account: payer, transport: http(rpcUrl) });
  const hash = await wallet.sendTransaction({
    chain: null,
    to: created.receiver as Address,
    value: parseEther(created.amount),
  });
  await waitForTransactionReceipt(wallet, { hash, pollingInterval: 200, timeout: 60_000 });
  await until(
    `dispersal ${created.receiver}`,
    async () => {
      const { status } = await api<Dispersal>(
        "GET",
        `/api/wallets/disperse/status?dispersalId=${created.receiver}`,
        undefined,
        key,
      );
      if (status === "partial" || status === "failed" || status === "expired")
        throw new Error(`dispersal ${created.receiver} ended ${status}`);
      return status === "completed" || undefined;
    },
    240_000,
  );
};

/**
 * Connects every user at once (user u to process u mod n, every third user a second time on
 * the next process, plus one anonymous connection per process), runs the launches and dispersals through the process after the one their owner
 * listens on, then compares what each connection received with what the processes logged
 * they sent.
 */
const measure = async (
  deployment: Deployment,
  sizes: (typeof SIZES)[Mode],
  log: (line: string) => void,
): Promise<{ tally: Tally; connected: number; disconnects: number }> => {
  const { urls, rpcUrl, adminKey } = deployment;
  const at = (n: number) => urls[n % urls.length] as string;
  const run = randomBytes(4).toString("hex");
  const devices = Array.from({ length: sizes.users }, (_, u) => `realtime-row-${run}-${u}`);
  const keys = await Promise.all(devices.map((device, u) => newUser(at(u), device)));
  const ids = await userIdsByDevice(at(0), adminKey);
  const watchers: Watcher[] = [];
  try {
    const idOf = (u: number) => ids.get(devices[u] as string) ?? null;
    watchers.push(
      ...(await Promise.all([
        ...keys.map((key, u) => watch(at(u), key, idOf(u))),
        // Every third user has the app open in a second tab, on the next process.
        ...keys.flatMap((key, u) => (u % 3 === 0 ? [watch(at(u + 1), key, idOf(u))] : [])),
        ...urls.map((url) => watch(url, null, null)),
      ])),
    );
    const connected = new Set(watchers.filter((w) => w.key && w.socket.connected).map((w) => w.key))
      .size;
    log(`${connected} users connected over ${urls.length} process(es)`);

    const launches = (async () => {
      // One launch at a time: two priced against one head would expect the same token address.
      for (let u = 0; u < sizes.launches; u++) {
        await launchBundle(at(u + 1), rpcUrl, keys[u] as string, 2);
        log(`launch ${u + 1}/${sizes.launches} executed`);
      }
    })();
    const dispersals = Promise.all(
      Array.from({ length: sizes.dispersals }, async (_, d) => {
        const u = sizes.launches + d;
        await disperse(at(u + 1), rpcUrl, keys[u % keys.length] as string, d % 2 === 1);
        log(`dispersal ${d + 1}/${sizes.dispersals} completed`);
      }),
    );
    await Promise.all([launches, dispersals]);

    // The last lines may still be on their way (through Postgres, from the other process).
    const count = () =>
      tally(
        deployment.printed().flatMap((output, n) => sentEventsIn(output, n)),
        watchers,
      );
    await until(
      "every sent event to arrive",
      async () => (count().delivered === count().expected ? true : undefined),
      20_000,
    ).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const sentBy = deployment.printed().map((output) => sentEventsIn(output).length);
    log(`user events sent, per process: ${sentBy.join(", ")}`);
    return {
      tally: count(),
      connected,
      disconnects: watchers.reduce((sum, w) => sum + w.disconnects, 0),
    };
  } finally {
    for (const watcher of watchers) watcher.socket.close();
  }
};

const figuresOf = (
  database: string,
  sizes: (typeof SIZES)[Mode],
  measured: Awaited<ReturnType<typeof measure>>,
): Figure[] => {
  const { expected, delivered, foreign, unsent, outOfOrder } = measured.tally;
  return [
    {
      figure: `${database}: users connected at once`,
      measured: String(measured.connected),
      goal: String(sizes.users),
      met: measured.connected === sizes.users,
    },
    {
      figure: `${database}: events delivered to owners`,
      measured: `${delivered} / ${expected}`,
      goal: "all",
      // Work ran, so there were events to deliver: none sent would prove nothing.
      met: expected > 0 && delivered === expected,
    },
    zero(`${database}: events reaching another user`, foreign),
    zero(`${database}: events received that the server did not send`, unsent),
    zero(`${database}: connections hearing a process's lines out of order`, outOfOrder),
  ];
};

export const realtimeRow: Row = {
  name: "realtime",
  what: "users connected at once while launches and dispersals run for several: each hears every line of its own work, nobody hears another's",
  async run(context) {
    const sizes = SIZES[context.mode];
    const figures: Figure[] = [];
    const targets: Array<[string, number, string | undefined]> = [["PGlite", 1, undefined]];
    if (context.databaseUrl) targets.push(["Postgres, 2 processes", 2, context.databaseUrl]);
    for (const [database, processes, baseUrl] of targets) {
      context.log(`${database}: starting ${processes} server process(es)`);
      const deployment = await deploy(processes, baseUrl);
      try {
        const measured = await measure(deployment, sizes, context.log);
        if (measured.disconnects > 0)
          context.log(`${database}: ${measured.disconnects} connection(s) dropped during the run`);
        figures.push(...figuresOf(database, sizes, measured));
      } finally {
        await deployment.stop();
      }
    }
    return figures;
  },
};
