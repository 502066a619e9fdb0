import { generateWalletsRoute } from "@bundler/shared";
import { useMutation } from "@tanstack/react-query";
import { apiFetch, type RouteBody } from "../../../lib/api-client.ts";
import { createEnvelopeKeyPair, openEnvelope } from "../../../lib/envelope.ts";
import type { BundleWallet } from "../utils/launch-form.ts";
import { walletFromPrivateKey } from "../utils/private-key.ts";

export const DECRYPT_FAILED = "Failed to decrypt wallet data";

export type GenerateWalletsInput = Omit<RouteBody<typeof generateWalletsRoute>, "publicKey">;

/**
 * Generates wallets on the server; their keys come back sealed to a key pair made for this call,
 * and each decrypted key is checked against its address. Silent: the caller toasts a failure.
 */
export async function generateWallets(input: GenerateWalletsInput): Promise<BundleWallet[]> {
  const pair = await createEnvelopeKeyPair();
  const response = await apiFetch(generateWalletsRoute, {
    body: { ...input, publicKey: pair.publicKeyBase64 },
    silent: true,
  });
  let keys: Map<string, string>;
  try {
    const opened = await openEnvelope(pair.privateKey, response.encryptedKeys);
    if (!Array.isArray(opened)) throw new Error("not a list");
    keys = new Map(
      opened.map((entry: { address?: unknown; privateKey?: unknown }) => {
        const wallet = walletFromPrivateKey(String(entry.privateKey));
        if (!wallet || wallet.address.toLowerCase() !== String(entry.address).toLowerCase())
          throw new Error("key does not match its address");
        return [wallet.address.toLowerCase(), wallet.privateKey] as const;
      }),
    );
  } catch {
    throw new Error(DECRYPT_FAILED);
  }
  return response.wallets.map(({ address, bnbAmount }) => {
    const privateKey = keys.get(address.toLowerCase());
    if (!privateKey) throw new Error(DECRYPT_FAILED);
    return {
      address,
      privateKey,
      buyValue: bnbAmount.buyValue,
      tokenAmount: bnbAmount.tokenAmount,
    };
  });
}

export const useGenerateWallets = () => useMutation({ mutationFn: generateWallets });
