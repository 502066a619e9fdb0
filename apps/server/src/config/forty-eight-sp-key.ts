import { keyAccount } from "@bundler/chain";
import type { Hex, LocalAccount } from "viem";
import { readPrivateKeyFile } from "../lib/key-file.ts";
import { ConfigError, type Env } from "./env.ts";

/**
 * The 48 Soul Point member's account that signs bundles to 48 Club, from FORTY_EIGHT_SP_KEY or
 * the file FORTY_EIGHT_SP_KEY_FILE names; undefined without either. The key lives in this
 * account only: never stored, logged, or put in an error.
 */
export const loadFortyEightSpSigner = (
  env: Pick<Env, "FORTY_EIGHT_SP_KEY" | "FORTY_EIGHT_SP_KEY_FILE">,
): LocalAccount | undefined => {
  if (env.FORTY_EIGHT_SP_KEY) return keyAccount(env.FORTY_EIGHT_SP_KEY as Hex);
  if (!env.FORTY_EIGHT_SP_KEY_FILE) return undefined;
  try {
    return keyAccount(readPrivateKeyFile(env.FORTY_EIGHT_SP_KEY_FILE, "FORTY_EIGHT_SP_KEY_FILE"));
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new ConfigError(
      `invalid configuration: FORTY_EIGHT_SP_KEY_FILE: ${code === "ENOENT" ? `${env.FORTY_EIGHT_SP_KEY_FILE} does not exist` : message}`,
    );
  }
};
