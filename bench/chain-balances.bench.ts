// BNB + token balances of 200 wallets on a local chain: getBalances (one multicall) against
// the naive ways (one eth_getBalance and one balanceOf per wallet: sequential, Promise.all
// without batching, and Promise.all with viem's JSON-RPC batching), as ratios of wall time
// and of RPC requests. Wall times are measured straight against anvil; requests are counted
// in a separate pass through a counting proxy, so the proxy's hop never skews the times.
// Prints figures; asserts nothing.
import { getBalances, launchToken } from "@bundler/chain";
import { type Address, createPublicClient, erc20Abi, http, parseEther } from "viem";
import {
  type BenchChain,
  median,
  prepareLaunch,
  randomAccounts,
  setBalances,
  startBenchChain,
  TIP_ADDRESS,
} from "./lib/localChain.ts";
import { onInterrupt } from "./lib/on-interrupt.ts";
import { type RpcProxy, startRpcProxy } from "./lib/rpcProxy.ts";

const WALLETS = 200;
/** Wallets that buy the token at launch, so some token balances are not zero. */
const HOLDERS = 20;
const RUNS = 7;

const say = (line = "") => process.stdout.write(`${line}\n`);

let chain: BenchChain | undefined;
let proxy: RpcProxy | undefined;
const cleanup = async () => {
  await proxy?.close();
  await chain?.close();
};

const interrupted = onInterrupt(cleanup);

type Balances = Array<{ bnb: bigint; token: bigint }>;
type PublicClient = ReturnType<typeof createPublicClient>;

interface Method {
  name: string;
  /** Whether it needs a client with viem's JSON-RPC batching on. */
  batched: boolean;
  read(client: PublicClient, addresses: readonly Address[], token: Address): Promise<Balances>;
}

const balanceOf = (client: PublicClient, token: Address, owner: Address) =>
  client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });

const methods: Method[] = [
  {
    name: "getBalances (one multicall)",
    batched: false,
    read: (client, addresses, token) => getBalances(client, { addresses, token }),
  },
  {
    name: "per wallet, sequential",
    batched: false,
    read: async (client, addresses, token) => {
      const balances: Balances = [];
      for (const address of addresses) {
        const bnb = await client.getBalance({ address });
        balances.push({ bnb, token: await balanceOf(client, token, address) });
      }
      return balances;
    },
  },
  {
    name: "per wallet, Promise.all, no batching",
    batched: false,
    read: (client, addresses, token) =>
      Promise.all(
        addresses.map(async (address) => {
          const [bnb, held] = await Promise.all([
            client.getBalance({ address }),
            balanceOf(client, token, address),
          ]);
          return { bnb, token: held };
        }),
      ),
  },
  {
    name: "per wallet, Promise.all, JSON-RPC batch",
    batched: true,
    read: (client, addresses, token) =>
      Promise.all(
        addresses.map(async (address) => {
          const [bnb, held] = await Promise.all([
            client.getBalance({ address }),
            balanceOf(client, token, address),
          ]);
          return { bnb, token: held };
        }),
      ),
  },
];

const clientsFor = (url: string) => ({
  plain: createPublicClient({ transport: http(url), cacheTime: 0 }),
  batched: createPublicClient({ transport: http(url, { batch: true }), cacheTime: 0 }),
});

const sameBalances = (a: Balances, b: Balances) =>
  a.length === b.length && a.every((x, i) => x.bnb === b[i]?.bnb && x.token === b[i]?.token);

const main = async () => {
  const startedAt = performance.now();
  chain = await startBenchChain({ builderMaxTxs: 60 });
  const wallets = randomAccounts(WALLETS);
  const addresses = wallets.map((w) => w.address);
  // Distinct BNB balances for everyone; the first HOLDERS also buy the token at launch.
  await setBalances(
    chain.rpcUrl,
    wallets.map((w, i) => [w.address, parseEther("1") + BigInt(i) * 10n ** 15n + BigInt(i)]),
  );
  const params = await prepareLaunch(chain, {
    buyers: wallets.slice(0, HOLDERS),
    funds: (i) => parseEther("0.01") + BigInt(i) * parseEther("0.001"),
  });
  const report = await launchToken({
    ...params,
    builders: [{ name: "dev", url: chain.builder.url, tipAddress: TIP_ADDRESS, maxTxs: 60 }],
  });
  const token = report.token;
  say(
    `chain: anvil ${chain.rpcUrl}; token ${token} launched with ${HOLDERS} of the ${WALLETS} ` +
      `wallets buying; setup ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
  );

  // Requests: one counted pass per method, through the proxy.
  proxy = await startRpcProxy(chain.rpcUrl);
  const counted = clientsFor(proxy.url);
  const counts = new Map<string, { requests: number; calls: number }>();
  let reference: Balances | undefined;
  let agree = true;
  for (const method of methods) {
    proxy.reset();
    const balances = await method.read(
      method.batched ? counted.batched : counted.plain,
      addresses,
      token,
    );
    counts.set(method.name, { requests: proxy.requests.length, calls: proxy.calls() });
    reference ??= balances;
    agree &&= sameBalances(reference, balances);
  }

  // Wall time: straight to anvil, a discarded warm-up round, then RUNS rounds, rotating
  // which method goes first.
  const direct = clientsFor(chain.rpcUrl);
  const times = new Map<string, number[]>(methods.map((m) => [m.name, []]));
  for (let round = 0; round <= RUNS && !interrupted(); round++) {
    for (let k = 0; k < methods.length; k++) {
      const method = methods[(round + k) % methods.length] as Method;
      const began = performance.now();
      const balances = await method.read(
        method.batched ? direct.batched : direct.plain,
        addresses,
        token,
      );
      const elapsed = performance.now() - began;
      if (round > 0) times.get(method.name)?.push(elapsed);
      if (reference) agree &&= sameBalances(reference, balances);
    }
  }

  if (interrupted()) return; // cleanup is under way; a partial summary would mislead
  const base = methods[0] as Method;
  const baseTime = median(times.get(base.name) ?? []);
  const baseRequests = counts.get(base.name)?.requests ?? Number.NaN;
  const baseCalls = counts.get(base.name)?.calls ?? Number.NaN;
  say();
  say(
    `balances of ${WALLETS} wallets (BNB + token), wall time median of ${RUNS} runs against anvil, ` +
      `requests counted by proxy:`,
  );
  say(
    `  ${"method".padEnd(40)} ${"wall time".padStart(10)} ${"HTTP reqs".padStart(10)} ` +
      `${"RPC calls".padStart(10)}   vs multicall: ${"time".padStart(6)} ${"reqs".padStart(6)} ${"calls".padStart(6)}`,
  );
  for (const method of methods) {
    const time = median(times.get(method.name) ?? []);
    const count = counts.get(method.name) ?? { requests: Number.NaN, calls: Number.NaN };
    say(
      `  ${method.name.padEnd(40)} ${`${time.toFixed(1)} ms`.padStart(10)} ` +
        `${String(count.requests).padStart(10)} ${String(count.calls).padStart(10)}   ` +
        `${"".padStart(14)}${`${(time / baseTime).toFixed(1)}x`.padStart(6)} ` +
        `${`${(count.requests / baseRequests).toFixed(0)}x`.padStart(6)} ` +
        `${`${(count.calls / baseCalls).toFixed(0)}x`.padStart(6)}`,
    );
  }
  const holders = reference?.filter((b) => b.token > 0n).length ?? 0;
  say(
    `results agree across all methods and runs: ${agree ? "yes" : "NO"} ` +
      `(${WALLETS} BNB + ${WALLETS} token balances, ${holders} non-zero token balances)`,
  );
  say(`bench took ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
};

try {
  await main();
} finally {
  await cleanup();
}
