import { screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { adminServer } from "../../../testing/admin-handlers.ts";
import { builderStatsFixture, builderStatsHandler } from "../../../testing/builders-handlers.ts";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { BuildersPage } from "./builders-page.tsx";

const PATH = "/api/admin/builders/stats";

const open = () =>
  renderInApp(<BuildersPage />, { route: "/admin/builders", authKey: "lbk_admin", role: "admin" });

describe("the Builders page", () => {
  it("shows each builder's sends, landings, blocks to land, refusals and why bundles it took did not land, per window", async () => {
    server.use(...adminServer().handlers, builderStatsHandler(PATH, builderStatsFixture()));
    open();
    const day = await screen.findByTestId("builder-stats-24h");
    expect(within(day).getByRole("heading").textContent).toBe(
      "Last 24 hours: 6 bundles sent, 4 landed",
    );
    const [first, second] = within(day).getAllByTestId("builder-stats-row");
    const cells = (row: HTMLElement | undefined) =>
      within(row as HTMLElement)
        .getAllByRole("cell")
        .map((cell) => cell.textContent);
    expect(cells(first)).toEqual([
      "48club",
      "6",
      "3",
      "3",
      "75%",
      "2",
      "2.9",
      "3 refused, 0 no answer2× bundle rejected: busy1× tip too low",
    ]);
    expect(cells(second)).toEqual([
      "blockrazor",
      "5",
      "2",
      "1",
      "25%",
      "4",
      "4",
      "2 refused, 1 no answer, 1 not asked1× no answer in 15000 ms1× took it, did not land: bundle gas price lower than 0.05 gwei",
    ]);
    const week = screen.getByTestId("builder-stats-168h");
    expect(within(week).getByRole("heading").textContent).toBe(
      "Last 7 days: 0 bundles sent, 0 landed",
    );
    expect(within(week).getByText("No bundles sent.")).toBeTruthy();
  });

  it("says when the statistics could not be loaded", async () => {
    server.use(
      ...adminServer().handlers,
      http.get(PATH, () => HttpResponse.json({ success: false, error: "boom" }, { status: 500 })),
    );
    open();
    expect((await screen.findByRole("alert")).textContent).toContain("[retry]");
  });
});
