import { addressOfKey, devPrivateKey } from "@bundler/chain";
import { type Address, getAddress, type Hex, isAddressEqual } from "viem";
import { readPrivateKeyFile } from "./key-file.ts";

export interface TreasurySource {
  chain: "local" | "bsc-testnet" | "bsc";
  privateKey?: string | undefined;
  keyFile?: string | undefined;
  /** TREASURY_ADDRESS, when set. */
  address?: string | undefined;
  /** The local profile's treasury (anvil dev account 2). */
  devAddress: Address;
}

export interface Treasury {
  address: Address;
  /** The key that pays referral claims; absent when none is configured. */
  privateKey?: Hex | undefined;
}

/**
 * The treasury: where fees are swept, and the wallet referral claims are paid from. Its key
 * comes from TREASURY_PRIVATE_KEY or TREASURY_KEY_FILE; on the local chain, without either and
 * without another TREASURY_ADDRESS, from anvil's dev account 2. A key that is not the key of
 * TREASURY_ADDRESS is refused.
 */
export const loadTreasury = (source: TreasurySource): Treasury => {
  const configured = source.privateKey
    ? (source.privateKey as Hex)
    : source.keyFile
      ? readPrivateKeyFile(source.keyFile, "TREASURY_KEY_FILE")
      : undefined;
  const address = source.address ? getAddress(source.address) : undefined;
  if (configured) {
    const owner = addressOfKey(configured);
    if (address && !isAddressEqual(owner, address))
      throw new Error(
        `the treasury key is the key of ${owner}, not of TREASURY_ADDRESS ${address}: set the matching pair`,
      );
    return { address: address ?? owner, privateKey: configured };
  }
  if (source.chain === "local" && (!address || isAddressEqual(address, source.devAddress)))
    return { address: source.devAddress, privateKey: devPrivateKey(2) };
  if (!address) throw new Error("TREASURY_ADDRESS is required off the local chain");
  return { address };
};
