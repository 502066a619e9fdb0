/** What the wallet manager tells the user (SPEC §8, "Wallets" and the success messages). */
export const WALLETS_MESSAGES = {
  emptyFailed: "Something went wrong with emptying the wallets, please try again.",
  sellFailed: "Something went wrong with selling the tokens, please try again.",
  developerSellFailed: "Something went wrong with selling developer tokens, please try again.",
  emptied: (count: number) => `${count} wallets emptied successfully`,
  /** Some of the wallets emptied, not all: how many did not, and the first reason. */
  emptyPartlyFailed: (count: number, reason: string | null) =>
    `${count} wallets could not be emptied${reason ? `: ${reason}` : ""}`,
  noTokens: "No tokens found",
} as const;
