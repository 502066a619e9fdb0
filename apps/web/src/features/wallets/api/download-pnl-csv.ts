import { bundlePnlCsvRoute } from "@bundler/shared";
import { useMutation } from "@tanstack/react-query";
import toast from "react-hot-toast";
import { env } from "../../../config/env.ts";
import { buildUrl } from "../../../lib/api-client.ts";
import { ApiError, serverMessageOf } from "../../../lib/api-error.ts";
import { downloadText } from "../../../lib/download.ts";
import { useAuth } from "../../auth/hooks/use-auth.ts";
import { failedBecause } from "../utils/wallet-messages.ts";

export const PNL_CSV_FAILED = "Failed to download the P&L ledger, please try again.";

export interface PnlCsv {
  csv: string;
  /** The name the server gave the file (Content-Disposition), when it could be read. */
  filename: string | null;
}

/** `attachment; filename="pnl-MCAT-0x….csv"` → `pnl-MCAT-0x….csv`; anything else → null. */
export const filenameOf = (disposition: string | null): string | null =>
  /filename="?([^";/\\]+)"?/.exec(disposition ?? "")?.[1] ?? null;

/**
 * The bundle's ledger as CSV text. The api client reads JSON only, so this asks the same way it
 * does (the key in `x-auth-key`, credentials included) and reads the answer as text; a failure
 * becomes the same `ApiError`.
 */
export async function fetchPnlCsv(
  address: string,
  authKey: string | null,
  signal?: AbortSignal,
): Promise<PnlCsv> {
  const headers: Record<string, string> = { accept: "text/csv" };
  if (authKey) headers["x-auth-key"] = authKey;
  let response: Response;
  try {
    response = await globalThis.fetch(buildUrl(env.apiBase, bundlePnlCsvRoute.path, { address }), {
      method: "GET",
      headers,
      credentials: "include",
      signal,
    });
  } catch {
    throw new ApiError(null);
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    throw new ApiError(response.status, serverMessageOf(body));
  }
  return {
    csv: await response.text(),
    filename: filenameOf(response.headers.get("content-disposition")),
  };
}

/**
 * The file's name when the server's cannot be read (a cross-origin API that does not expose the
 * header): the ticker and the token's address, e.g. "mcat-pnl-0xaaaa0000.csv".
 */
export const pnlCsvFilename = (ticker: string, address: string): string =>
  `${ticker.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-pnl-${address.slice(0, 10).toLowerCase()}.csv`;

/** [download csv]: fetches the ledger and saves it; a failure says why in a toast. */
export function useDownloadPnlCsv(address: string, ticker: string) {
  const { authKey } = useAuth();
  return useMutation({
    mutationFn: () => fetchPnlCsv(address, authKey),
    onSuccess: ({ csv, filename }) =>
      downloadText(filename ?? pnlCsvFilename(ticker, address), csv, "text/csv"),
    onError: (error) => void toast.error(failedBecause(PNL_CSV_FAILED, error)),
  });
}
