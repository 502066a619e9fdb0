import { screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { draftFixture, LOCAL_CONFIG } from "../../../testing/fixtures.ts";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { LaunchPage } from "./launch-page.tsx";

const TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const launched = draftFixture({
  status: "executed",
  walletConfig: {
    ...draftFixture().walletConfig,
    wallets: [{ address: WALLET, privateKey: `0x${"22".repeat(32)}`, buyValue: "0.01" }],
  },
  launch: {
    tokenAddress: TOKEN,
    blockNumber: "4242",
    atomicWallets: 1,
    totalWallets: 1,
    launchpadUrl: `https://four.meme/token/${TOKEN}`,
  },
});

/** The create page opened on the launched draft; only the draft and the config are served. */
const openLaunched = () => {
  server.use(
    http.get("/api/config", () =>
      HttpResponse.json({
        success: true,
        config: { ...LOCAL_CONFIG, explorerUrl: "https://bscscan.com" },
      }),
    ),
    http.get(`/api/draft/${launched._id}`, () =>
      HttpResponse.json({ success: true, draft: launched }),
    ),
  );
  renderInApp(<LaunchPage />, { route: `/create?draft=${launched._id}`, authKey: "lbk_key" });
};

describe("a launched draft opened on the create page", () => {
  it("says the block it launched in", async () => {
    openLaunched();
    expect((await screen.findByTestId("launched-block")).textContent).toBe(
      "Launched in block 4242",
    );
  });

  it("offers no edit, update or funding buttons", async () => {
    openLaunched();
    await screen.findByTestId("launched-draft");
    expect(screen.queryByText("Edit Draft")).toBeNull();
    expect(screen.queryByRole("button", { name: "Update Draft" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Missing Funds (Go to Disperser)" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Execute Launch" })).toBeNull();
  });

  it("links the token on the explorer and the launchpad, and opens it in the wallet manager", async () => {
    openLaunched();
    const links = within(await screen.findByRole("navigation", { name: "Token links" }));
    expect(links.getByRole("link", { name: "[explorer]" }).getAttribute("href")).toBe(
      `https://bscscan.com/token/${TOKEN}`,
    );
    expect(links.getByRole("link", { name: "[launchpad page]" }).getAttribute("href")).toBe(
      `https://four.meme/token/${TOKEN}`,
    );
    expect(links.getByRole("link", { name: "[open in wallet manager]" }).getAttribute("href")).toBe(
      `/wallets/${TOKEN}`,
    );
  });
});
