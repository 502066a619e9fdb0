import { privateKeyToAccount } from "viem/accounts";
import type { FourMemeImage, FourMemeTokenDraft } from "./types.ts";

/** Shared inputs for the four.meme tests; anvil's first well-known key, never a real one. */
export const deployer = privateKeyToAccount(
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);

/** A 1x1 PNG. */
export const pngImage: FourMemeImage = {
  bytes: new Uint8Array(
    Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
      "base64",
    ),
  ),
  mimeType: "image/png",
  fileName: "logo.png",
};

export const tokenDraft: FourMemeTokenDraft = {
  name: "Moon Cat",
  shortName: "MCAT",
  desc: "A cat that went to the moon.",
  label: "Meme",
  launchTime: 1_760_000_000_000,
  twitterUrl: "https://x.com/mooncat",
  preSale: "0.1",
};
