/**
 * A token's or an address's page on the block explorer, or null on a chain without one (the
 * local chain, where there is no address page to link to; hashes go to the app's `/tx/:hash`).
 */
export function explorerAddressUrl(
  explorerUrl: string | null | undefined,
  address: string,
  kind: "address" | "token" = "address",
): string | null {
  const explorer = explorerUrl?.replace(/\/+$/, "");
  return explorer ? `${explorer}/${kind}/${address}` : null;
}
