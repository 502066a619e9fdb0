import { useState } from "react";
import { BUNDLER_WALLETS_KEY } from "../../../lib/bundler-wallets.ts";
import { readBundlerWallets, type StoredBundlerWallets } from "../utils/bundler-wallets.ts";

function readStored(): StoredBundlerWallets {
  try {
    return readBundlerWallets(localStorage.getItem(BUNDLER_WALLETS_KEY));
  } catch {
    // Storage blocked: as if nothing was handed over.
    return { status: "none" };
  }
}

/** The bundle wallets the launch page handed over, read once when the page opens. */
export function useBundlerWallets(): StoredBundlerWallets {
  const [stored] = useState(readStored);
  return stored;
}
