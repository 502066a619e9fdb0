import type { AutosellFiring, AutosellRule } from "@bundler/shared";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { beforeAll, describe, expect, it } from "vitest";
import { toastTexts } from "../../../testing/render.tsx";
import { deliverSocketEvent } from "../../../testing/socket-events.ts";
import {
  bundleFixture,
  txHash,
  txStatusHandler,
  walletAddress,
} from "../../../testing/wallets-handlers.ts";
import { failure, loadCharts, panel, renderBundlePage } from "./bundle-detail-test-utils.tsx";

beforeAll(loadCharts);

const TOKEN = bundleFixture().address;
const RULE_ID = "6f1c2d4e-0000-4000-8000-000000000001";

/** A sniper guard at 1 BNB selling all of every bundle wallet, armed, read at block 41. */
const sniperGuard = (overrides: Partial<AutosellRule> = {}): AutosellRule => ({
  id: RULE_ID,
  address: TOKEN,
  state: "armed",
  trigger: { any: [{ type: "outsideBuys", atLeastBnb: "1" }] },
  action: { percent: 100, includeDeveloper: false },
  execution: { spreadBlocks: 1, maxWalletsPerBlock: 50, jitter: false, slippageBps: 500 },
  reading: {
    block: "41",
    conditions: [{ type: "outsideBuys", text: "outside net buying 0.4 BNB of 1", met: false }],
  },
  firings: [],
  createdAt: new Date(0).toISOString(),
  ...overrides,
});

const firing = (block: string, hashes: string[]): AutosellFiring => ({
  tier: 0,
  block,
  reading: {
    block,
    conditions: [{ type: "outsideBuys", text: "outside net buying 1.2 BNB of 1", met: true }],
  },
  state: "sent",
  transactions: hashes,
  error: null,
  at: new Date(0).toISOString(),
});

/**
 * The rules routes over `state.rules`: the list answers what it holds now, each route records
 * the bodies and paths it was sent; `create` and `dryRun` answer what the test says.
 */
function rulesServer({
  rules = [] as AutosellRule[],
  create = (): Response => HttpResponse.json({ success: true, rule: sniperGuard() }),
  dryRun = (): Response => HttpResponse.json({ success: false, error: "not asked" }),
  moved = (verb: string): AutosellRule =>
    sniperGuard({ state: verb === "pause" ? "paused" : "cancelled" }),
  statusOf = (() => ({ status: "pending", reason: null })) as Parameters<typeof txStatusHandler>[0],
} = {}) {
  const statuses = txStatusHandler(statusOf);
  const state = {
    rules,
    created: [] as unknown[],
    updated: [] as Array<{ id: unknown; body: unknown }>,
    dryRuns: [] as unknown[],
    verbs: [] as string[],
    /** The hashes of each transaction-status call. */
    statusCalls: statuses.asked,
  };
  const handlers = [
    statuses.handler,
    http.get("/api/bundle/rules", () => HttpResponse.json({ success: true, rules: state.rules })),
    http.post("/api/bundle/rules/dry-run", async ({ request }) => {
      state.dryRuns.push(await request.json());
      return dryRun();
    }),
    http.post("/api/bundle/rules/:id/:verb", ({ params }) => {
      state.verbs.push(`${params.id}/${params.verb}`);
      const rule = moved(String(params.verb));
      state.rules = [rule];
      return HttpResponse.json({ success: true, rule });
    }),
    http.put("/api/bundle/rules/:id", async ({ request, params }) => {
      const body = (await request.json()) as Pick<AutosellRule, "trigger" | "action">;
      state.updated.push({ id: params.id, body });
      const rule = sniperGuard({ trigger: body.trigger, action: body.action });
      state.rules = [rule];
      return HttpResponse.json({ success: true, rule });
    }),
    http.post("/api/bundle/rules", async ({ request }) => {
      state.created.push(await request.json());
      return create();
    }),
  ];
  return { state, handlers };
}

/** The bundle page with the rules routes; resolves once the rules list has answered. */
async function openRules(server = rulesServer()) {
  renderBundlePage(undefined, { handlers: server.handlers });
  await screen.findByRole("region", { name: "#Rules" });
  await waitFor(() => expect(within(rulesPanel()).queryByRole("status")).toBeNull());
  return server.state;
}

const rulesPanel = () => panel("Rules");
const press = (name: string) => fireEvent.click(within(rulesPanel()).getByRole("button", { name }));
const field = (label: string) =>
  within(rulesPanel()).getByLabelText(label) as HTMLInputElement | HTMLSelectElement;
const type = (label: string, value: string) =>
  fireEvent.change(field(label), { target: { value } });

describe("the rules form", () => {
  it("fills the sniper guard preset's condition, value and percent", async () => {
    await openRules();
    press("Sniper guard");
    expect(field("Condition 1's type").value).toBe("outsideBuys");
    expect(field("Condition 1's outside net buying (BNB)").value).toBe("1");
    expect(field("Percent to sell").value).toBe("100");
  });

  it("fills the ladder preset's three tiers, each with its own trigger", async () => {
    await openRules();
    press("Ladder 2x / 3x / trailing 30%");
    expect([1, 2, 3].map((tier) => field(`Tier ${tier}'s percent to sell`).value)).toEqual([
      "25",
      "25",
      "50",
    ]);
    expect(field("Tier 2, condition 1's times the average cost").value).toBe("3");
    expect(field("Tier 3, condition 1's drop from the high (%)").value).toBe("30");
  });

  it("arms a sniper guard at 1 BNB with its trigger, a 100% sale and the default execution", async () => {
    const state = await openRules();
    press("Sniper guard");
    press("Arm rule");
    await waitFor(() => expect(state.created).toHaveLength(1));
    expect(state.created[0]).toEqual({
      address: TOKEN,
      trigger: { any: [{ type: "outsideBuys", atLeastBnb: "1" }] },
      action: { percent: 100, includeDeveloper: false },
      execution: { spreadBlocks: 1, maxWalletsPerBlock: 50, jitter: false, slippageBps: 500 },
    });
  });

  it("sends the slippage typed as a percent in basis points", async () => {
    const state = await openRules();
    press("Stop loss -50%");
    type("Slippage %", "2.5");
    press("Arm rule");
    await waitFor(() => expect(state.created).toHaveLength(1));
    expect(state.created[0]).toMatchObject({
      trigger: { any: [{ type: "stopLoss", pnlPercent: -50 }] },
      execution: { slippageBps: 250 },
    });
  });

  it("sends the developer wallet too when its box is ticked", async () => {
    const state = await openRules();
    press("Take initial out at 2x");
    fireEvent.click(field("Include the developer wallet"));
    press("Arm rule");
    await waitFor(() => expect(state.created).toHaveLength(1));
    expect(state.created[0]).toMatchObject({
      trigger: { any: [{ type: "priceMultiple", atLeast: "2" }] },
      action: { percent: 50, includeDeveloper: true },
    });
  });

  it("shows each condition's reading, whether it would fire, and each wallet's sale to 4 decimals", async () => {
    const state = await openRules(
      rulesServer({
        dryRun: () =>
          HttpResponse.json({
            success: true,
            reading: {
              block: "41",
              conditions: [
                { type: "outsideBuys", text: "outside net buying 1.2 BNB of 1", met: true },
              ],
            },
            fires: true,
            sales: [
              { address: walletAddress(1), tokens: "30000000.123456", expectedBnb: "0.41234" },
              { address: walletAddress(3), tokens: "10000000", expectedBnb: "0.1" },
            ],
            expectedBnb: "0.51234",
          }),
      }),
    );
    press("Sniper guard");
    press("Dry run");

    const result = await within(rulesPanel()).findByTestId("rule-dry-run");
    expect(state.dryRuns).toHaveLength(1);
    expect(within(result).getByTestId("rule-dry-run-verdict").textContent).toBe(
      "It would fire now, at block 41.",
    );
    expect(within(result).getByTestId("rule-dry-run-reading").textContent).toBe(
      "outside net buying 1.2 BNB of 1 (met)",
    );
    const rows = within(result).getAllByTestId("rule-dry-run-sale");
    expect(rows.map((row) => row.textContent)).toEqual([
      "0x0001…bbbb30,000,000.12340.4123",
      "0x0003…bbbb10,000,000.00000.1000",
    ]);
    expect(within(result).getByTestId("rule-dry-run-total").textContent).toBe(
      "The sales would fetch 0.5123 BNB in total.",
    );
  });

  it("shows the server's sentence beside the form when it refuses the rule", async () => {
    await openRules(
      rulesServer({
        create: () => failure("Ladder tiers add up to more than 100%.", 400),
      }),
    );
    press("Ladder 2x / 3x / trailing 30%");
    type("Tier 3's percent to sell", "60");
    press("Arm rule");
    expect((await within(rulesPanel()).findByTestId("rule-problem")).textContent).toBe(
      "Ladder tiers add up to more than 100%.",
    );
  });

  it("says which field is not a number, and sends nothing", async () => {
    const state = await openRules();
    press("Sniper guard");
    type("Condition 1's outside net buying (BNB)", "");
    press("Arm rule");
    expect(within(rulesPanel()).getByTestId("rule-problem").textContent).toBe(
      "Condition 1's outside net buying (BNB) must be a number like 1.5.",
    );
    expect(state.created).toEqual([]);
  });
});

describe("the rules list", () => {
  it("shows each rule's state, its trigger in words and the live reading", async () => {
    await openRules(rulesServer({ rules: [sniperGuard()] }));
    const rule = within(rulesPanel()).getByTestId("rule");
    expect(within(rule).getByTestId("rule-state").textContent).toBe("armed");
    expect(rule.textContent).toContain(
      "Sells 100% of every bundle wallet's tokens when outside buyers' net buying reaches 1 BNB since launch.",
    );
    expect(within(rule).getByTestId("rule-reading").textContent).toBe(
      "outside net buying 0.4 BNB of 1 (not met)",
    );
    expect(within(rule).queryByRole("button", { name: "Resume" })).toBeNull();
  });

  it("pauses an armed rule and then offers to resume it", async () => {
    const state = await openRules(rulesServer({ rules: [sniperGuard()] }));
    press("Pause");
    expect(await within(rulesPanel()).findByRole("button", { name: "Resume" })).toBeTruthy();
    expect(state.verbs).toEqual([`${RULE_ID}/pause`]);
    expect(within(rulesPanel()).getByTestId("rule-state").textContent).toBe("paused");
  });

  it("edits an armed rule in the form and saves its new trigger without the address", async () => {
    const state = await openRules(rulesServer({ rules: [sniperGuard()] }));
    press("Edit");
    expect(field("Condition 1's outside net buying (BNB)").value).toBe("1");
    type("Condition 1's outside net buying (BNB)", "2.5");
    press("Save changes");

    await waitFor(() => expect(state.updated).toHaveLength(1));
    expect(state.updated[0]).toEqual({
      id: RULE_ID,
      body: {
        trigger: { any: [{ type: "outsideBuys", atLeastBnb: "2.5" }] },
        action: { percent: 100, includeDeveloper: false },
        execution: { spreadBlocks: 1, maxWalletsPerBlock: 50, jitter: false, slippageBps: 500 },
      },
    });
    expect(await within(rulesPanel()).findByRole("button", { name: "Arm rule" })).toBeTruthy();
  });

  it("lists a fired rule's firing with its block, reading and transactions, and no actions", async () => {
    const fired = sniperGuard({ state: "fired", firings: [firing("42", [txHash(7)])] });
    await openRules(rulesServer({ rules: [fired] }));
    const row = within(rulesPanel()).getByTestId("rule-firing") as HTMLTableRowElement;
    await waitFor(() =>
      expect(Array.from(row.cells, (cell) => cell.textContent)).toEqual([
        "42",
        "outside net buying 1.2 BNB of 1",
        "sent, waiting for its block",
        "—",
        "0x0000…0007",
      ]),
    );
    expect(within(rulesPanel()).queryByRole("button", { name: "Cancel" })).toBeNull();
  });

  it("labels the reading's block and the sales' block apart", async () => {
    const fired = sniperGuard({ state: "fired", firings: [firing("42", [txHash(7)])] });
    await openRules(rulesServer({ rules: [fired] }));
    const headers = within(rulesPanel())
      .getAllByRole("columnheader")
      .map((header) => header.textContent);
    expect(headers).toEqual([
      "Reading's block",
      "Reading that fired it",
      "Outcome",
      "Sales' block",
      "Transactions",
    ]);
  });

  it("says in which block a firing's sales landed and what they sold and fetched, once mined", async () => {
    const fired = sniperGuard({
      state: "fired",
      firings: [firing("42", [txHash(6), txHash(7), txHash(8)])],
    });
    const TOKEN_UNIT = 10n ** 18n;
    await openRules(
      rulesServer({
        rules: [fired],
        statusOf: (hash) => ({
          status: "success",
          reason: null,
          blockNumber: "43",
          sale:
            hash === txHash(6)
              ? null
              : {
                  tokens: (1_000n * TOKEN_UNIT).toString(),
                  bnb: hash === txHash(7) ? "0.0101" : "0.02",
                },
        }),
      }),
    );
    const row = within(rulesPanel()).getByTestId("rule-firing") as HTMLTableRowElement;
    await waitFor(() =>
      expect(row.cells[2]?.textContent).toBe(
        "landed in block 43: sold 2,000.0000 tokens for 0.0301 BNB",
      ),
    );
    expect(row.cells[3]?.textContent).toBe("43");
  });

  it("asks for a long firing's statuses 200 hashes at a time, the most one call takes", async () => {
    const hashes = Array.from({ length: 201 }, (_, n) => txHash(100 + n));
    const fired = sniperGuard({ state: "fired", firings: [firing("42", hashes)] });
    const state = await openRules(rulesServer({ rules: [fired] }));
    await waitFor(() => expect(state.statusCalls.length).toBeGreaterThanOrEqual(2));
    expect(state.statusCalls.slice(0, 2).map((call) => call.length)).toEqual([200, 1]);
  });

  it("says which of a firing's sales failed and why, beside what the others fetched", async () => {
    const fired = sniperGuard({ state: "fired", firings: [firing("42", [txHash(7), txHash(8)])] });
    await openRules(
      rulesServer({
        rules: [fired],
        statusOf: (hash) =>
          hash === txHash(7)
            ? {
                status: "success",
                reason: null,
                blockNumber: "43",
                sale: { tokens: (10n ** 21n).toString(), bnb: "0.01" },
              }
            : {
                status: "failed",
                reason: "the sale fetched less than its floor",
                blockNumber: "43",
              },
      }),
    );
    const row = within(rulesPanel()).getByTestId("rule-firing") as HTMLTableRowElement;
    await waitFor(() =>
      expect(row.cells[2]?.textContent).toBe(
        "landed in block 43: sold 1,000.0000 tokens for 0.0100 BNB; 1 of 2 transactions failed: the sale fetched less than its floor",
      ),
    );
  });

  it("says why some of a rule's inputs could not be read at this block", async () => {
    const error =
      "Not read at this block: outside buys: the launchpad's events could not be read (block range too wide)";
    const unread = sniperGuard({
      reading: {
        block: "41",
        conditions: [
          {
            type: "outsideBuys",
            text: "outside buys: not read at this block (the launchpad's events could not be read)",
            met: false,
          },
        ],
        error,
      },
    });
    await openRules(rulesServer({ rules: [unread] }));
    const rule = within(rulesPanel()).getByTestId("rule");
    expect(within(rule).getByTestId("rule-reading-error").textContent).toBe(error);
    expect(within(rule).getByTestId("rule-reading").textContent).toBe(
      "outside buys: not read at this block (the launchpad's events could not be read) (not met)",
    );
  });

  it("shows why a firing failed", async () => {
    const reason =
      "Gave up after 10 attempts (the last at block 52): Value `1e-7` is not a valid decimal number.";
    const failed = sniperGuard({
      state: "fired",
      firings: [{ ...firing("42", []), state: "failed", error: reason }],
    });
    await openRules(rulesServer({ rules: [failed] }));
    const row = within(rulesPanel()).getByTestId("rule-firing") as HTMLTableRowElement;
    expect(row.cells[2]?.textContent).toBe(`failed: ${reason}`);
  });

  it("cancels a fired rule whose firing is still selling, and shows the firing stopped with what was sent", async () => {
    const selling = sniperGuard({
      state: "fired",
      firings: [{ ...firing("42", [txHash(7)]), state: "selling" }],
    });
    const stopped =
      "Stopped by a cancel: no further waves; the 1 transaction already sent stands (what it sold stays sold)";
    const state = await openRules(
      rulesServer({
        rules: [selling],
        moved: () =>
          sniperGuard({
            state: "cancelled",
            firings: [{ ...firing("42", [txHash(7)]), state: "stopped", error: stopped }],
          }),
      }),
    );
    expect(within(rulesPanel()).queryByRole("button", { name: "Edit" })).toBeNull();
    press("Cancel");
    await waitFor(() =>
      expect(within(rulesPanel()).getByTestId("rule-state").textContent).toBe("cancelled"),
    );
    expect(state.verbs).toEqual([`${RULE_ID}/cancel`]);
    const row = within(rulesPanel()).getByTestId("rule-firing") as HTMLTableRowElement;
    expect(Array.from(row.cells, (cell) => cell.textContent)).toEqual([
      "42",
      "outside net buying 1.2 BNB of 1",
      `stopped: ${stopped}`,
      "—",
      "0x0000…0007",
    ]);
  });

  it("reads the rules again at a new block and toasts a firing that was not there before", async () => {
    const server = rulesServer({ rules: [sniperGuard()] });
    const state = await openRules(server);
    expect(toastTexts().some((text) => text.startsWith("Rule fired"))).toBe(false);

    state.rules = [sniperGuard({ state: "fired", firings: [firing("42", [txHash(7)])] })];
    deliverSocketEvent("block", 42);

    await waitFor(() =>
      expect(toastTexts()).toContain(
        "Rule fired: outside buyers' net buying reaches 1 BNB since launch at block 42.",
      ),
    );
    expect(within(rulesPanel()).getByTestId("rule-state").textContent).toBe("fired");
  });
});
