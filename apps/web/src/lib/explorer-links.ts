/**
 * A token's or an address's page: on the block explorer (`/address/` or `/token/`), or, on a
 * chain without one (the local chain), the app's own address page (`/address/{address}`), which
 * reads it from the server. Hashes go to `explorerTxUrl` (terminal-line.ts) the same way.
 *
 * @example
 * explorerAddressUrl("https://bscscan.com/", token, "token"); // "https://bscscan.com/token/0x…"
 * explorerAddressUrl(null, token, "token"); // "/address/0x…"
 */
export function explorerAddressUrl(
  explorerUrl: string | null | undefined,
  address: string,
  kind: "address" | "token" = "address",
): string {
  const explorer = explorerUrl?.replace(/\/+$/, "");
  return explorer ? `${explorer}/${kind}/${address}` : `/address/${address}`;
}
