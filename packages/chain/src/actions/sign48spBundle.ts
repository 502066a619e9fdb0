import { concat, type Hex, keccak256, type LocalAccount, parseSignature } from "viem";
import { ChainError } from "../errors.ts";

export interface Sign48spBundleParameters {
  /** A 48 Soul Point member's key (FORTY_EIGHT_SP_KEY). */
  account: LocalAccount;
  /** The bundle exactly as 48 Club gets it: signed raw transactions, its tip included. */
  txs: readonly Hex[];
}

export type Sign48spBundleReturnType = Hex;

/**
 * The `48spSign` of a bundle to 48 Club: an ECDSA signature by a 48 Soul Point member's key
 * over keccak256 of its transactions' hashes concatenated, no message prefix, as 65 bytes
 * r || s || v with v the recovery id, 0 or 1 (48 Club's docs sign with go-ethereum's
 * `crypto.Sign`, and their published example ends in 01, not viem's 27/28).
 *
 * @example
 * const signature = await sign48spBundle({ account: privateKeyToAccount(key), txs });
 */
export const sign48spBundle = async ({
  account,
  txs,
}: Sign48spBundleParameters): Promise<Sign48spBundleReturnType> => {
  if (!account.sign) throw new ChainError("the 48 Soul Point account cannot sign a hash");
  const hash = keccak256(concat(txs.map((raw) => keccak256(raw))));
  const { r, s, yParity } = parseSignature(await account.sign({ hash }));
  return concat([r, s, yParity === 1 ? "0x01" : "0x00"]);
};
