import {
  type BuilderEndpoint,
  type ChainName,
  type FourMemeClient,
  getRaisedToken,
  rpcFetch,
} from "@bundler/chain";
import type { PreflightCheck } from "@bundler/shared";
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  formatEther,
  formatGwei,
  type Hex,
  parseAbi,
  zeroAddress,
} from "viem";

/** Everything a preflight reads; it sends nothing. */
export interface PreflightTarget {
  chain: ChainName;
  chainId: number;
  rpcUrl: string;
  /** The profile's floor: the price the server signs at when the node asks less. */
  gasPriceFloor: bigint;
  /** TokenManager2 and Helper3 (the local ones on the local chain); null when not configured. */
  launchpad: Address | null;
  helper: Address | null;
  /** four.meme's API (off the local chain); null where launches are signed locally. */
  fourMeme: FourMemeClient | null;
  builders: BuilderEndpoint[];
}

/** What a check says: `failed` with `essential` stops a start off the local chain. */
type Outcome = Omit<PreflightCheck, "area" | "name" | "essential">;

const ok = (detail: string): Outcome => ({ status: "ok", detail, fix: null });
const failed = (detail: string, fix: string): Outcome => ({ status: "failed", detail, fix });
const warning = (detail: string, fix: string): Outcome => ({ status: "warning", detail, fix });
const skipped = (detail: string): Outcome => ({ status: "skipped", detail, fix: null });

/** Gwei to 4 decimals at most. */
const gwei = (wei: bigint) =>
  Number(formatGwei(wei))
    .toFixed(4)
    .replace(/\.?0+$/, "");

/** How long the RPC has for each read, and a builder for its answer (the issue's 2 s). */
const RPC_TIMEOUT_MS = 5_000;
export const BUILDER_TIMEOUT_MS = 2_000;

interface RpcAnswer {
  result?: unknown;
  error?: { code?: number; message?: string };
}

/** One JSON-RPC call with a deadline: its answer, or a thrown error in words. */
export const callRpc = async (
  url: string,
  method: string,
  params: unknown[],
  timeoutMs = RPC_TIMEOUT_MS,
  headers: Record<string, string> = {},
): Promise<RpcAnswer> => {
  const response = await rpcFetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  }).catch((error: Error) => {
    throw new Error(
      error.name === "TimeoutError" || error.name === "AbortError"
        ? `no answer within ${timeoutMs / 1000} s`
        : error.message,
    );
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as RpcAnswer;
  } catch {
    throw new Error(`HTTP ${response.status}, not a JSON-RPC answer`);
  }
};

const managerAbi = parseAbi([
  "function _launchFee() view returns (uint256)",
  "function _tradingFeeRate() view returns (uint256)",
]);
const helperAbi = parseAbi([
  "function getTokenInfo(address token) view returns (uint256 version, address tokenManager, address quote, uint256 lastPrice, uint256 tradingFeeRate, uint256 minTradingFee, uint256 launchTime, uint256 offers, uint256 maxOffers, uint256 funds, uint256 maxFunds, bool liquidityAdded)",
]);

type Check = { area: PreflightCheck["area"]; name: string; essential: boolean };

/**
 * The checks of a setup that read the chain, four.meme's API and the builders (the database
 * and keys are `keyChecks`'), in the order they print. Each is a sentence and, when it fails,
 * what to do about it.
 */
export async function chainChecks(target: PreflightTarget): Promise<PreflightCheck[]> {
  const checks: PreflightCheck[] = [];
  const add = (check: Check, outcome: Outcome) => checks.push({ ...check, ...outcome });
  const rpc = (method: string, params: unknown[] = []) => callRpc(target.rpcUrl, method, params);

  // RPC
  const reach: Check = { area: "RPC", name: "reachable", essential: true };
  const chainId = await rpc("eth_chainId").catch((error: Error) => error);
  if (chainId instanceof Error || typeof chainId.result !== "string") {
    const why = chainId instanceof Error ? chainId.message : (chainId.error?.message ?? "no id");
    add(reach, failed(`the RPC did not answer eth_chainId (${why})`, "check RPC_URL"));
    for (const area of ["Contracts", "four.meme API", "Builders"] as const)
      add({ area, name: "not checked", essential: false }, skipped("the RPC is unreachable"));
    return checks;
  }
  add(reach, ok("the RPC answers"));
  const id = Number(BigInt(chainId.result));
  add(
    { area: "RPC", name: "chain id", essential: true },
    id === target.chainId
      ? ok(`chain id ${id}, as CHAIN=${target.chain} expects`)
      : failed(
          `the RPC is on chain ${id}, but CHAIN=${target.chain} expects chain ${target.chainId}`,
          `point RPC_URL at a ${target.chain} node, or set CHAIN to the network the RPC is on`,
        ),
  );
  const simulated: RpcAnswer = await rpc("eth_simulateV1", [
    { blockStateCalls: [{ calls: [] }] },
    "latest",
  ]).catch((error: Error) => ({ error: { message: error.message } }));
  add(
    { area: "RPC", name: "eth_simulateV1", essential: true },
    Array.isArray(simulated.result)
      ? ok("answers eth_simulateV1 (every launch is simulated with it first)")
      : failed(
          `the RPC does not answer eth_simulateV1 (${simulated.error?.message ?? "no result"}): every launch is simulated with it before it is signed`,
          "use a node that runs BSC v1.6.3 or later (v1.5.5 added eth_simulateV1, v1.6.2 broke it, v1.6.3 fixed it)",
        ),
  );
  const price = await rpc("eth_gasPrice").catch(() => ({}) as RpcAnswer);
  const gasPrice = typeof price.result === "string" ? BigInt(price.result) : null;
  add(
    { area: "RPC", name: "gas price", essential: false },
    gasPrice === null
      ? warning("the RPC did not say its gas price", "check the node")
      : gasPrice >= target.gasPriceFloor
        ? ok(`gas price ${gwei(gasPrice)} gwei (floor ${gwei(target.gasPriceFloor)})`)
        : warning(
            `gas price ${gwei(gasPrice)} gwei is under the floor of ${gwei(target.gasPriceFloor)} gwei: transactions are signed at the floor`,
            "nothing to do unless the builders ask more (their floors are in docs/configuration.md)",
          ),
  );

  // Contracts
  const call = async (to: Address, data: Hex): Promise<RpcAnswer> =>
    rpc("eth_call", [{ to, data }, "latest"]).catch((error: Error) => ({
      error: { message: error.message },
    }));
  for (const [name, address] of [
    ["TokenManager2", target.launchpad],
    ["Helper3", target.helper],
  ] as const) {
    const check: Check = { area: "Contracts", name: `${name} code`, essential: true };
    if (!address) {
      add(
        check,
        failed(`no ${name} address is configured for ${target.chain}`, "check the profile"),
      );
      continue;
    }
    const code = await rpc("eth_getCode", [address, "latest"]).catch(() => ({}) as RpcAnswer);
    add(
      check,
      typeof code.result === "string" && code.result !== "0x"
        ? ok(`${name} has code at ${address}`)
        : failed(
            `${name} has no code at ${address} on this chain`,
            `check that RPC_URL is a ${target.chain} node and that the profile's address is right`,
          ),
    );
  }
  if (target.launchpad) {
    const views = await Promise.all(
      (["_launchFee", "_tradingFeeRate"] as const).map(async (functionName) => {
        const answer = await call(
          target.launchpad as Address,
          encodeFunctionData({ abi: managerAbi, functionName }),
        );
        try {
          return decodeFunctionResult({
            abi: managerAbi,
            functionName,
            data: answer.result as Hex,
          });
        } catch {
          return null;
        }
      }),
    );
    const [fee, rate] = views;
    add(
      { area: "Contracts", name: "launch fee and trading fee", essential: true },
      fee === null || rate === null
        ? failed(
            "TokenManager2 does not answer _launchFee() and _tradingFeeRate(): a launch's value is read from them",
            "check the profile's TokenManager2 address",
          )
        : ok(
            `launch fee ${formatEther(fee as bigint)} BNB, trading fee ${(Number(rate) / 100).toFixed(2)}%`,
          ),
    );
  }
  if (target.helper) {
    const answer = await call(
      target.helper,
      encodeFunctionData({ abi: helperAbi, functionName: "getTokenInfo", args: [zeroAddress] }),
    );
    let answers = false;
    try {
      decodeFunctionResult({
        abi: helperAbi,
        functionName: "getTokenInfo",
        data: answer.result as Hex,
      });
      answers = true;
    } catch {
      // A revert with a reason is an answer too: the function is there and refused a token.
      answers = Boolean(answer.error && (answer.error as { data?: unknown }).data);
    }
    add(
      { area: "Contracts", name: "getTokenInfo", essential: true },
      answers
        ? ok("Helper3 answers getTokenInfo")
        : failed(
            `Helper3 does not answer getTokenInfo (${answer.error?.message ?? "an answer of the wrong shape"})`,
            "check the profile's Helper3 address",
          ),
    );
  }

  // four.meme's API
  const api: Check = { area: "four.meme API", name: "raise config", essential: true };
  if (!target.fourMeme) add(api, skipped("launches are signed by the local launch signer here"));
  else {
    const raised = await getRaisedToken(target.fourMeme).catch((error: Error) => error);
    add(
      api,
      raised instanceof Error
        ? failed(
            `GET /public/config did not answer with a BNB raise config (${raised.message})`,
            "check FOUR_MEME_API_URL and that this machine reaches four.meme",
          )
        : ok(
            `GET /public/config: ${raised.symbol} raise of ${raised.totalBAmount ?? "?"} ${raised.symbol}, creation fee in the config ${raised.deployCost ?? "?"}`,
          ),
    );
  }

  // Builders
  const answered = await Promise.all(
    target.builders.map(async (builder) => {
      const started = performance.now();
      // With its key, as bundles go: a keyed endpoint refuses a call without one.
      const answer = await callRpc(
        builder.url,
        "eth_chainId",
        [],
        BUILDER_TIMEOUT_MS,
        builder.authorization ? { authorization: builder.authorization } : {},
      ).catch((error: Error) => error);
      const ms = Math.round(performance.now() - started);
      return { builder, answer, ms };
    }),
  );
  for (const { builder, answer, ms } of answered)
    add(
      { area: "Builders", name: builder.name, essential: false },
      answer instanceof Error
        ? warning(
            `${builder.name} did not answer (${answer.message})`,
            `check its endpoint (${new URL(builder.url).host}) and this machine's access to it`,
          )
        : ok(
            `${builder.name} answered in ${ms} ms (bundles of up to ${builder.maxTxs} transactions${builder.minGasPrice === undefined ? "" : `, gas price at least ${formatGwei(builder.minGasPrice)} gwei`}${builder.authorization ? ", keyed" : ""})`,
          ),
    );
  add(
    { area: "Builders", name: "at least one", essential: true },
    answered.some((a) => !(a.answer instanceof Error))
      ? ok(
          `${answered.filter((a) => !(a.answer instanceof Error)).length} of ${answered.length} builders answer`,
        )
      : failed(
          target.builders.length === 0
            ? "no builder is configured: bundles cannot be sent"
            : "no builder answered: no bundle can be sent",
          "check the builders' endpoints (docs/configuration.md, Builders)",
        ),
  );
  return checks;
}

/** What the key and money checks read: the database, the vault, the treasury. */
export interface KeyTarget {
  migrations: () => Promise<{ known: number; applied: number }>;
  /** The vault's `openNewest`. */
  openNewest: () => Promise<{ address: string; matches: boolean } | null>;
  treasury: { address: Address; hasKey: boolean };
}

/** The checks of the database, the master key and the treasury. */
export async function keyChecks(target: KeyTarget): Promise<PreflightCheck[]> {
  const checks: PreflightCheck[] = [];
  const add = (check: Check, outcome: Outcome) => checks.push({ ...check, ...outcome });
  const area = "Keys and money" as const;
  const migrations = await target.migrations().catch((error: Error) => error);
  add(
    { area, name: "database", essential: true },
    migrations instanceof Error
      ? failed(`the database did not answer (${migrations.message})`, "check DATABASE_URL")
      : migrations.applied === migrations.known
        ? ok(`the database answers, with all ${migrations.known} migrations applied`)
        : migrations.applied > migrations.known
          ? failed(
              `the database holds ${migrations.applied} migrations, this version knows ${migrations.known}: a newer version migrated it`,
              "run the newer version, or restore the database from before it",
            )
          : failed(
              `the database holds ${migrations.applied} of this version's ${migrations.known} migrations`,
              "start the server once: it applies them",
            ),
  );
  const opened = await target.openNewest().catch((error: Error) => error);
  add(
    { area, name: "master key", essential: true },
    opened instanceof Error
      ? failed(
          `the master key does not open the stored wallet keys (${opened.message})`,
          "set MASTER_KEY or MASTER_KEY_FILE to the key this database was written with",
        )
      : opened === null
        ? ok("the master key is loaded; no wallet key is stored yet")
        : opened.matches
          ? ok(`the master key opens the stored wallet keys (the newest, of ${opened.address})`)
          : failed(
              `the newest stored key opens, but is not the key of its address ${opened.address}`,
              "the database's keys were changed outside the app: restore it from a backup",
            ),
  );
  add(
    { area, name: "treasury", essential: false },
    target.treasury.hasKey
      ? ok(`the treasury key is the key of TREASURY_ADDRESS ${target.treasury.address}`)
      : warning(
          `no treasury key: fees go to ${target.treasury.address}, but referral claims cannot be paid by the app`,
          "set TREASURY_PRIVATE_KEY or TREASURY_KEY_FILE (the key of TREASURY_ADDRESS)",
        ),
  );
  return checks;
}
