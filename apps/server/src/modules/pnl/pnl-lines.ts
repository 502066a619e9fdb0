import { LaunchpadManagerArtifact } from "@bundler/contracts";
import type { PnlKind, PnlRole } from "@bundler/shared";
import { type Address, decodeEventLog, erc20Abi, type Hex, type Log } from "viem";
import type { NewLedgerRow, PnlBundle } from "./pnl.repository.ts";

/** Log indexes of lines that are no log's: a receipt's gas, the value a transaction moved. */
export const GAS_LINE = -1;
export const VALUE_LINE = -2;
/** A wallet's balance before the launch: the ledger's start. */
export const OPENING_LINE = -100;
export const OPENING_HASH = "opening";

const wethAbi = [
  {
    type: "event",
    name: "Withdrawal",
    inputs: [
      { name: "src", type: "address", indexed: true },
      { name: "wad", type: "uint256", indexed: false },
    ],
  },
] as const;

/** What a receipt says, as much of it as the ledger reads. */
export interface ReceiptLike {
  transactionHash: string;
  from: string;
  to: string | null;
  status: "success" | "reverted";
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  blockNumber: bigint;
  logs: ReadonlyArray<Pick<Log, "address" | "data" | "topics" | "logIndex">>;
}

/** Where a bundle trades and what its receipts are read against. */
export interface LineContext {
  bundle: PnlBundle;
  launchpad: Address;
  /** WBNB: a sale on the DEX pays out through its Withdrawal. */
  weth: Address | null;
  blockTime: Date;
}

/** The developer's own, a bundle wallet's own, or the tip payer's (a shared line). */
export const roleOf = (bundle: PnlBundle, address: string): PnlRole => {
  const a = address.toLowerCase();
  if (a === bundle.deployer) return "developer";
  if (bundle.wallets.includes(a)) return "bundle";
  return "tip-payer";
};

/** The bundle's own addresses: its wallets, its developer and its tip payer. */
export const addressesOf = (bundle: PnlBundle): string[] => [
  ...new Set(
    [...bundle.wallets, bundle.deployer, bundle.tipPayer].filter((a): a is string => Boolean(a)),
  ),
];

/** The addresses with a row of their own: the developer, then the bundle's wallets. */
export const holdersOf = (bundle: PnlBundle) => [
  ...(bundle.deployer ? [{ address: bundle.deployer, role: "developer" as const }] : []),
  ...bundle.wallets
    .filter((w) => w !== bundle.deployer)
    .map((address) => ({ address, role: "bundle" as const })),
];

/** The lower and the higher of two block numbers (bigints: Math.min and Math.max take none). */
export const lowerOf = (a: bigint, b: bigint) => (a < b ? a : b);
export const higherOf = (a: bigint, b: bigint) => (a > b ? a : b);

const same = (a: string | null | undefined, b: string | null | undefined) =>
  Boolean(a && b && a.toLowerCase() === b.toLowerCase());

/**
 * The ledger lines one receipt makes: its gas (reverted ones too), the launchpad's creation
 * fee, buys and sales of the bundle's token by the bundle's addresses (each with its trading
 * fee), and what it moved: an empty's value, a DEX sale's payout, a builder's tip (`tip`: the
 * role its lines take: the launch's tip payer's is a shared line, a sell bundle's tip is the
 * paying wallet's own cost).
 */
export const linesOfReceipt = (
  receipt: ReceiptLike,
  context: LineContext,
  what: { purpose?: string; value?: bigint; tip?: PnlRole } = {},
): NewLedgerRow[] => {
  const { bundle } = context;
  const own = new Set(addressesOf(bundle));
  const line = (
    logIndex: number,
    kind: PnlKind,
    wallet: string,
    role: PnlRole,
    bnb: bigint,
    tokens = 0n,
  ): NewLedgerRow => ({
    token: bundle.token,
    txHash: receipt.transactionHash.toLowerCase(),
    logIndex,
    kind,
    wallet: wallet.toLowerCase(),
    role,
    bnb: bnb.toString(),
    tokens: tokens.toString(),
    blockNumber: receipt.blockNumber,
    blockTime: context.blockTime,
  });
  const from = receipt.from.toLowerCase();
  const payerRole: PnlRole = what.tip ?? roleOf(bundle, from);
  const lines = [
    line(GAS_LINE, "gas", from, payerRole, receipt.gasUsed * receipt.effectiveGasPrice),
  ];
  if (receipt.status !== "success") return lines;
  if (what.tip && what.value) lines.push(line(VALUE_LINE, "tip", from, what.tip, what.value));
  if (what.purpose === "bundle-empty" && what.value)
    lines.push(line(VALUE_LINE, "empty", from, payerRole, what.value));

  const events = receipt.logs.flatMap((log) => {
    if (!same(log.address, context.launchpad)) return [];
    const event = decoded(log);
    return event ? [{ event, at: log.logIndex ?? 0 }] : [];
  });
  const created = events.some(({ event }) => event.eventName === "TokenCreate");
  let sold = false;
  for (const { event, at } of events) {
    if (event.eventName === "TokenCreate" && same(event.args.token, bundle.token))
      lines.push(line(at, "create-fee", event.args.creator, "deployer", event.args.launchFee));
    if (event.eventName === "TokenPurchase" || event.eventName === "TokenSale") {
      const { token, account, amount, cost, fee } = event.args;
      const wallet = account.toLowerCase();
      if (!same(token, bundle.token) || !own.has(wallet)) continue;
      const role = roleOf(bundle, wallet);
      if (event.eventName === "TokenSale") {
        sold = true;
        lines.push(line(at, "sale", wallet, role, cost, amount));
      } else {
        const kind = created && wallet === bundle.deployer ? "dev-buy" : "buy";
        lines.push(line(at, kind, wallet, role, cost, amount));
      }
      lines.push(line(at, "trading-fee", wallet, role, fee));
    }
  }
  if (what.purpose === "bundle-sell" && !sold && context.weth) {
    const sale = dexSale(receipt, context.weth, bundle.token, from);
    if (sale) lines.push(line(sale.at, "sale", from, payerRole, sale.wad, sale.tokens));
    // A tax token's tax on the sale: the tokens it moved from the seller to itself.
    if (sale && sale.taxTokens > 0n)
      lines.push(line(sale.taxAt, "tax", from, payerRole, 0n, sale.taxTokens));
  }
  return lines;
};

/**
 * A sale through the DEX router: the WBNB it unwrapped for the seller (the receipt's last
 * unwrap: a tax token's dispatch inside the sale unwraps for the token before it), the tokens
 * it took, and of those the tax the token kept (transfers from the seller to the token).
 */
const dexSale = (receipt: ReceiptLike, weth: Address, token: string, seller: string) => {
  let at: number | null = null;
  let wad = 0n;
  let tokens = 0n;
  let taxTokens = 0n;
  let taxAt = 0;
  for (const log of receipt.logs) {
    if (same(log.address, weth)) {
      const event = decodedWeth(log);
      if (event) {
        at = log.logIndex ?? 0;
        wad = event.args.wad;
      }
    } else if (same(log.address, token)) {
      const event = decodedTransfer(log);
      if (event && same(event.args.from, seller)) {
        tokens += event.args.value;
        if (same(event.args.to, token)) {
          taxTokens += event.args.value;
          taxAt = log.logIndex ?? 0;
        }
      }
    }
  }
  return at === null ? null : { at, wad, tokens, taxTokens, taxAt };
};

type RawLog = Pick<Log, "data" | "topics">;
const topicsOf = (log: RawLog) => log.topics as [Hex, ...Hex[]];

/** The launchpad's event in `log`, or null when it is none of them. */
const decoded = (log: RawLog) => {
  try {
    return decodeEventLog({
      abi: LaunchpadManagerArtifact.abi,
      data: log.data,
      topics: topicsOf(log),
    });
  } catch {
    return null;
  }
};

const decodedWeth = (log: RawLog) => {
  try {
    return decodeEventLog({ abi: wethAbi, data: log.data, topics: topicsOf(log) });
  } catch {
    return null;
  }
};

const decodedTransfer = (log: RawLog) => {
  try {
    const event = decodeEventLog({ abi: erc20Abi, data: log.data, topics: topicsOf(log) });
    return event.eventName === "Transfer" ? event : null;
  } catch {
    return null;
  }
};

/** A wallet's balance before the launch: where its reconciliation starts. */
export const openingLine = (
  bundle: PnlBundle,
  wallet: string,
  balance: bigint,
  blockNumber: bigint,
  blockTime: Date,
): NewLedgerRow => ({
  token: bundle.token,
  txHash: OPENING_HASH,
  logIndex: OPENING_LINE,
  kind: "opening",
  wallet: wallet.toLowerCase(),
  role: roleOf(bundle, wallet),
  bnb: balance.toString(),
  tokens: "0",
  blockNumber,
  blockTime,
});
