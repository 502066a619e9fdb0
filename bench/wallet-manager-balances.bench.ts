// The wallet manager's balances of a 100-wallet bundle (every wallet's BNB and tokens, the
// developer's, the token's supply and state): the server's BundlesService (one multicall)
// against the naive way, one HTTP request per wallet (a JSON-RPC batch of eth_getBalance and
// balanceOf), both in parallel and one after another. RPC requests are counted by a loopback
// proxy, which in a second pass holds every request 20 ms, as a remote node would. Wall time
// is the median of RUNS runs. Prints figures and ratios; asserts only that all agree.
import { profiles } from "@bundler/chain";
import { type Address, encodeFunctionData, erc20Abi, formatEther, type Hex } from "viem";
import { localChainContext } from "../apps/server/src/lib/chain-context.ts";
import { BundlesRepository } from "../apps/server/src/modules/bundles/bundles.repository.ts";
import { BundlesService } from "../apps/server/src/modules/bundles/bundles.service.ts";
import { createTestApp, type TestApp } from "../apps/server/src/test/app.ts";
import { launchBundle } from "../apps/server/src/test/bundles.ts";
import { startTestChain, type TestChain } from "../apps/server/src/test/chain.ts";
import { median } from "./lib/localChain.ts";
import { onInterrupt } from "./lib/on-interrupt.ts";
import { type RpcProxy, startRpcProxy } from "./lib/rpcProxy.ts";

const WALLETS = 100;
const RUNS = 7;
const LATENCIES = [0, 20] as const;

const say = (line = "") => process.stdout.write(`${line}\n`);

let testChain: TestChain | undefined;
let app: TestApp | undefined;
const proxies: RpcProxy[] = [];
const cleanup = async () => {
  for (const proxy of proxies) await proxy.close();
  await app?.close();
  await testChain?.stop();
};
const interrupted = onInterrupt(cleanup);

type Read = Array<{ address: string; bnb: string; token: string }>;

/** One HTTP request per wallet: its BNB and its tokens in one JSON-RPC batch. */
const perWallet = async (url: string, token: Address, wallets: Address[], parallel: boolean) => {
  const one = async (address: Address) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 0, method: "eth_getBalance", params: [address, "latest"] },
        {
          jsonrpc: "2.0",
          id: 1,
          method: "eth_call",
          params: [
            {
              to: token,
              data: encodeFunctionData({
                abi: erc20Abi,
                functionName: "balanceOf",
                args: [address],
              }),
            },
            "latest",
          ],
        },
      ]),
    });
    const answers = (await response.json()) as Array<{ id: number; result: Hex }>;
    const of = (id: number) => BigInt(answers.find((a) => a.id === id)?.result ?? "0x0");
    return { address, bnb: formatEther(of(0)), token: of(1).toString() };
  };
  if (parallel) return Promise.all(wallets.map(one));
  const read: Read = [];
  for (const address of wallets) read.push(await one(address));
  return read;
};

const main = async () => {
  const startedAt = performance.now();
  const masterKey = Buffer.alloc(32, 31);
  testChain = await startTestChain(masterKey);
  app = await createTestApp({ chain: testChain.chain, masterKey });
  const key = await app.auth.mintKey("user");
  const ownerId = (await app.auth.authenticate(key))?.id as string;
  const bundle = await launchBundle(app, testChain, key, { wallets: WALLETS, buy: "0.02" });
  const wallets = [...bundle.wallets.map((w) => w.address), bundle.deployer.address];
  say(
    `chain: anvil with the local launchpad; a ${WALLETS}-wallet bundle launched ` +
      `(token ${bundle.token}); setup ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
  );

  say();
  say(`balances of a ${WALLETS}-wallet bundle (+ developer), median of ${RUNS} runs:`);
  say(
    `  ${"latency".padEnd(8)} ${"method".padEnd(38)} ${"wall time".padStart(10)} ` +
      `${"HTTP reqs".padStart(10)}   ${"vs ours: time".padStart(13)} ${"reqs".padStart(6)}`,
  );
  let agree = true;
  for (const delayMs of LATENCIES) {
    const proxy = await startRpcProxy(testChain.chain.rpcUrl, { delayMs });
    proxies.push(proxy);
    const chain = localChainContext(
      profiles.local,
      { ...testChain.local, builderUrl: proxy.url },
      50,
    );
    const service = new BundlesService(new BundlesRepository(app.database.db), chain);
    const methods: Array<{ name: string; read: () => Promise<Read> }> = [
      {
        name: "BundlesService.balances (one multicall)",
        read: async () => {
          const { balances, developerBalance } = await service.balances(ownerId, bundle.token);
          return [...balances, ...(developerBalance ? [developerBalance] : [])].map((b) => ({
            address: b.address,
            bnb: b.bnbBalance,
            token: b.tokenUnits,
          }));
        },
      },
      {
        name: "one request per wallet, in parallel",
        read: () => perWallet(proxy.url, bundle.token, wallets, true),
      },
      {
        name: "one request per wallet, one by one",
        read: () => perWallet(proxy.url, bundle.token, wallets, false),
      },
    ];
    const results = new Map<string, { ms: number; requests: number }>();
    let reference: Read | undefined;
    for (const method of methods) {
      const times: number[] = [];
      let requests = 0;
      for (let run = 0; run <= RUNS && !interrupted(); run++) {
        proxy.reset();
        const began = performance.now();
        const read = await method.read();
        const elapsed = performance.now() - began;
        if (run === 0) continue; // warm-up
        times.push(elapsed);
        requests = proxy.requests.length;
        reference ??= read;
        agree &&= JSON.stringify(read) === JSON.stringify(reference);
      }
      results.set(method.name, { ms: median(times), requests });
    }
    if (interrupted()) return;
    const ours = results.get(methods[0]?.name ?? "") as { ms: number; requests: number };
    for (const method of methods) {
      const { ms, requests } = results.get(method.name) as { ms: number; requests: number };
      say(
        `  ${`${delayMs} ms`.padEnd(8)} ${method.name.padEnd(38)} ${`${ms.toFixed(1)} ms`.padStart(10)} ` +
          `${String(requests).padStart(10)}   ${`${(ms / ours.ms).toFixed(1)}x`.padStart(13)} ` +
          `${`${(requests / ours.requests).toFixed(0)}x`.padStart(6)}`,
      );
    }
  }
  say(`results agree across methods and runs: ${agree ? "yes" : "NO"}`);
  say(`bench took ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
  if (!agree) process.exitCode = 1;
};

try {
  await main();
} finally {
  await cleanup();
}
