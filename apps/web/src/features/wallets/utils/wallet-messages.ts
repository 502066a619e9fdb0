/** What the wallet manager tells the user (SPEC §8, "Wallets" and the success messages). */
export const WALLETS_MESSAGES = {
  emptyFailed: "Something went wrong with emptying the wallets, please try again.",
  sellFailed: "Something went wrong with selling the tokens, please try again.",
  developerSellFailed: "Something went wrong with selling developer tokens, please try again.",
  emptied: (count: number) => `${count} wallets emptied successfully`,
  noTokens: "No tokens found",
} as const;
