import { ApiError } from "../../../lib/api-client.ts";

/** A 400 about one bundle wallet: its row in the list (from 1) and the server's sentence. */
export interface WalletProblem {
  row: number;
  message: string;
}

/** A draft's (`walletConfig.wallets.2.buyValue`) or a plan's (`wallets.2.buyValue`) wallet. */
const WALLET_FIELD = /^(walletConfig\.)?wallets\.\d+(\.|$)/;

/** The wallet a refused request names, for the wallet list to mark; null for anything else. */
export function walletProblemOf(error: unknown): WalletProblem | null {
  if (!(error instanceof ApiError) || !error.row || !error.field || !error.serverMessage)
    return null;
  return WALLET_FIELD.test(error.field) ? { row: error.row, message: error.serverMessage } : null;
}
