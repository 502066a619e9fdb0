import { readFileSync, statSync } from "node:fs";
import { addressOfKey, devPrivateKey } from "@bundler/chain";
import { type Address, getAddress, type Hex, isAddressEqual } from "viem";

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

const readKeyFile = (file: string): Hex => {
  const mode = statSync(file).mode & 0o777;
  if (process.platform !== "win32" && mode & 0o077)
    throw new Error(
      `${file} may be read by other users (mode 0${mode.toString(8)}): run chmod 600 ${file}`,
    );
  const text = readFileSync(file, "utf8").trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(text))
    throw new Error(`TREASURY_KEY_FILE ${file} must hold 0x and 64 hex characters`);
  return text as Hex;
};

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
      ? readKeyFile(source.keyFile)
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
