import { type Hex, toHex } from "viem";
import { type HDAccount, mnemonicToAccount } from "viem/accounts";

/** anvil's well-known development mnemonic: never use these accounts off the local chain. */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";

/** The funded anvil account at `index` (startAnvil funds 0 and 1). */
export const devAccount = (index: number): HDAccount =>
  mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });

/** The private key of anvil's development account at `index`. */
export const devPrivateKey = (index: number): Hex => {
  const key = devAccount(index).getHdKey().privateKey;
  if (!key) throw new Error(`no private key for dev account ${index}`);
  return toHex(key);
};
