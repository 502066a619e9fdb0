import { type Hex, isHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export const INVALID_PRIVATE_KEY = "Invalid private key";

export interface KeyedWallet {
  address: string;
  privateKey: string;
}

/** A 64-hex key with or without 0x, normalized to 0x-prefixed lowercase; null when not a key. */
export function normalizePrivateKey(input: string): Hex | null {
  const text = input.trim();
  const hex = (
    text.startsWith("0x") || text.startsWith("0X") ? `0x${text.slice(2)}` : `0x${text}`
  ).toLowerCase() as Hex;
  return isHex(hex) && hex.length === 66 ? hex : null;
}

/** The wallet a key controls, or null for anything that is not a valid secp256k1 key. */
export function walletFromPrivateKey(input: string): KeyedWallet | null {
  const key = normalizePrivateKey(input);
  if (!key) return null;
  try {
    return { address: privateKeyToAccount(key).address, privateKey: key };
  } catch {
    return null;
  }
}

/** A fresh key from 32 bytes of crypto.getRandomValues; retries the (astronomically rare) invalid draw. */
export function generateWallet(
  random = (bytes: Uint8Array) => crypto.getRandomValues(bytes),
): KeyedWallet {
  for (;;) {
    const bytes = random(new Uint8Array(32));
    const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    const wallet = walletFromPrivateKey(hex);
    if (wallet) return wallet;
  }
}

/** Comma/whitespace-separated keys: the valid ones as wallets (deduplicated), the rest dropped. */
export function parsePrivateKeyList(text: string): KeyedWallet[] {
  const seen = new Set<string>();
  const wallets: KeyedWallet[] = [];
  for (const part of text.split(/[\s,]+/)) {
    const wallet = part ? walletFromPrivateKey(part) : null;
    if (wallet && !seen.has(wallet.address)) {
      seen.add(wallet.address);
      wallets.push(wallet);
    }
  }
  return wallets;
}
