import type { AddressInfo } from "@bundler/shared";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { Route, Routes, useParams } from "react-router";
import { describe, expect, it } from "vitest";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { AddressPage } from "./address-page.tsx";

const TOKEN = "0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa";
const WALLET = "0x2222222222222222222222222222222222222222";
const HASH_IN = `0x${"1".repeat(64)}`;
const HASH_OUT = `0x${"2".repeat(64)}`;

const account = (overrides: Partial<AddressInfo> = {}): AddressInfo => ({
  address: WALLET,
  balance: "1.234567891",
  nonce: 7,
  isContract: false,
  token: null,
  transactions: [
    {
      hash: HASH_OUT,
      purpose: "bundle-sell",
      status: "mined",
      blockNumber: "120",
      from: WALLET,
      to: TOKEN,
    },
    {
      hash: HASH_IN,
      purpose: "dispersal-final",
      status: "sent",
      blockNumber: null,
      from: "0x3333333333333333333333333333333333333333",
      to: WALLET,
    },
  ],
  ...overrides,
});

function TxStub() {
  return <p>tx page {useParams().hash}</p>;
}

const renderPage = (address: string, answer: () => Response) => {
  const seen: string[] = [];
  server.use(
    http.get("/api/tx/address/:address", ({ params }) => {
      seen.push(params.address as string);
      return answer();
    }),
  );
  renderInApp(
    <Routes>
      <Route path="/address/:address" element={<AddressPage />} />
      <Route path="/tx/:hash" element={<TxStub />} />
      <Route path="/wallets/:address" element={<p>wallet manager</p>} />
    </Routes>,
    { route: `/address/${address}`, authKey: "lbk_test" },
  );
  return seen;
};

const ok = (info: AddressInfo) => () => HttpResponse.json({ success: true, address: info });

describe("the address page", () => {
  it("shows an account's balance (4 decimals), nonce and the transactions, each linking to its page", async () => {
    const seen = renderPage(WALLET, ok(account()));
    expect(await screen.findByTestId("address-balance")).toHaveProperty(
      "textContent",
      "1.2346 BNB",
    );
    expect(seen).toEqual([WALLET]);
    const details = within(screen.getByTestId("address-details"));
    expect(details.getByText("7")).toBeTruthy();
    expect(details.getByText("account")).toBeTruthy();
    expect(screen.queryByTestId("address-token")).toBeNull();

    const rows = screen.getAllByTestId("address-tx");
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/bundle-sell.*out.*mined.*120/),
      expect.stringMatching(/dispersal-final.*in.*sent.*—/),
    ]);
    await userEvent.click(within(rows[0] as HTMLElement).getByRole("link"));
    expect(await screen.findByText(`tx page ${HASH_OUT}`)).toBeTruthy();
  });

  it("shows a launchpad token's details and links its wallet manager page", async () => {
    renderPage(
      TOKEN,
      ok(
        account({
          address: TOKEN,
          isContract: true,
          nonce: 1,
          transactions: [],
          token: { name: "Moon Cat", symbol: "MCAT", totalSupply: "1000000000", graduated: true },
        }),
      ),
    );
    const token = within(await screen.findByTestId("address-token"));
    expect(token.getByText("Moon Cat")).toBeTruthy();
    expect(token.getByText("$MCAT")).toBeTruthy();
    expect(token.getByText("1,000,000,000")).toBeTruthy();
    expect(token.getByText("the DEX (graduated)")).toBeTruthy();
    expect(screen.getByText("contract")).toBeTruthy();
    expect(screen.getByText("None from or to this address.")).toBeTruthy();
    await userEvent.click(screen.getByRole("link", { name: "[open in wallet manager]" }));
    expect(await screen.findByText("wallet manager")).toBeTruthy();
  });

  it("shows a token's total supply to 4 decimals at most", async () => {
    renderPage(
      TOKEN,
      ok(
        account({
          address: TOKEN,
          isContract: true,
          transactions: [],
          token: {
            name: "Odd Cat",
            symbol: "ODD",
            totalSupply: "999999999.123456789123456789",
            graduated: false,
          },
        }),
      ),
    );
    const token = within(await screen.findByTestId("address-token"));
    expect(token.getByText("999,999,999.1234")).toBeTruthy();
  });

  it("shows the server's error", async () => {
    renderPage(WALLET, () =>
      HttpResponse.json({ success: false, error: "chain unavailable" }, { status: 503 }),
    );
    expect((await screen.findByRole("alert")).textContent).toMatch(/chain unavailable/);
  });

  it("refuses a malformed address without a request", async () => {
    const seen = renderPage("0x1234", ok(account()));
    expect((await screen.findByRole("alert")).textContent).toMatch(/Not an address/);
    expect(seen).toEqual([]);
  });
});
