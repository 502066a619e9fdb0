import { type PublicBuilder, plural } from "@bundler/shared";

const LABELS: Record<string, string> = {
  "48club": "48 Club",
  blockrazor: "BlockRazor",
  nodereal: "NodeReal",
  local: "the local builder",
  "local-slow": "the slow local builder",
};

const label = (name: string) => LABELS[name] ?? name;
const joined = (items: string[]) =>
  items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

/** "48 Club takes 5 unsigned", "48 Club takes 10 signed", "NodeReal takes 15". */
const takes = (builder: PublicBuilder) =>
  `${label(builder.name)} takes ${builder.maxTxs}${builder.name === "48club" ? (builder.signed ? " signed" : " unsigned") : ""}`;

/**
 * How many buying wallets share the create's block with these builders, and why: the largest
 * bundle holds the create, the buys and its builder's tip; every other builder is named with
 * what it takes. More wallets buy in later bundles, after the create's block.
 *
 * @example
 * blockFitSentence([{ name: "blockrazor", maxTxs: 50, signed: false }, { name: "48club", maxTxs: 5, signed: false }])
 * // "Up to 48 buying wallets land in the create's block: BlockRazor takes 50 transactions (the create, 48 buys, its tip); 48 Club takes 5 unsigned."
 */
export const blockFitSentence = (builders: readonly PublicBuilder[]): string => {
  const best = Math.max(0, ...builders.map((builder) => builder.maxTxs));
  if (best < 3)
    return "No builder is configured that takes a create, a buy and a tip in one bundle: launches cannot be sent.";
  const buyers = best - 2;
  const top = builders.filter((builder) => builder.maxTxs === best);
  const rest = builders.filter((builder) => builder.maxTxs < best);
  const topWords = `${joined(top.map((builder) => label(builder.name)))} ${top.length === 1 ? "takes" : "take"} ${best} transactions${top.length === 1 && top[0]?.name === "48club" && top[0].signed ? " signed" : ""} (the create, ${plural(buyers, "buy")}, ${top.length === 1 ? "its" : "their"} tip)`;
  return `Up to ${plural(buyers, "buying wallet")} ${buyers === 1 ? "lands" : "land"} in the create's block: ${[topWords, ...rest.map(takes)].join("; ")}.`;
};

/** The wallets past what the create's block holds, said when there are any. */
export const laterBundlesSentence = (
  builders: readonly PublicBuilder[],
  walletCount: number,
): string | null => {
  const buyers = Math.max(0, ...builders.map((builder) => builder.maxTxs)) - 2;
  if (buyers < 1 || walletCount <= buyers) return null;
  return `The other ${plural(walletCount - buyers, "wallet")} buy in later bundles, after the create's block.`;
};
