import type { PublicBuilder } from "@bundler/shared";
import { screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { LOCAL_CONFIG } from "../../../testing/fixtures.ts";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { BlockFitNote } from "./block-fit-note.tsx";

const withBuilders = (builders: PublicBuilder[]) =>
  server.use(
    http.get("/api/config", () =>
      HttpResponse.json({ success: true, config: { ...LOCAL_CONFIG, chain: "bsc", builders } }),
    ),
  );

describe("BlockFitNote", () => {
  it("says how many wallets buy in the create's block with the server's builders, and why", async () => {
    withBuilders([
      { name: "48club", maxTxs: 5, signed: false },
      { name: "blockrazor", maxTxs: 50, signed: false },
    ]);
    renderInApp(<BlockFitNote walletCount={20} />);
    expect((await screen.findByTestId("block-fit")).textContent).toBe(
      "Up to 48 buying wallets land in the create's block: BlockRazor takes 50 transactions (the create, 48 buys, its tip); 48 Club takes 5 unsigned.",
    );
  });

  it("says where the wallets past the create's block buy", async () => {
    withBuilders([{ name: "48club", maxTxs: 10, signed: true }]);
    renderInApp(<BlockFitNote walletCount={12} />);
    expect((await screen.findByTestId("block-fit")).textContent).toBe(
      "Up to 8 buying wallets land in the create's block: 48 Club takes 10 transactions signed (the create, 8 buys, its tip). The other 4 wallets buy in later bundles, after the create's block.",
    );
  });
});
