import { screen, within } from "@testing-library/react";
import { getAddress } from "viem";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { draftFixture } from "../../testing/fixtures.ts";
import { advance, renderInApp, toastTexts } from "../../testing/render.tsx";
import { deliverSocketEvent } from "../../testing/socket-events.ts";
import { BundleTerminal } from "./bundle-terminal.tsx";

const KEY = "bk_test_key";
const TOKEN = `0x${"cd".repeat(20)}`;
const SUCCESS_LINE = `SUCCESS MCAT launched: token ${TOKEN} created in block 9, 5/5 wallets bought in the same block`;
const FAILURE_LINE = "FAILED launch: wallet 0x2 is short by 0.01 BNB";

const say = (message: string) => deliverSocketEvent(`launch_status_${KEY}`, { message });

function renderTerminal(
  draft = draftFixture({ status: "executing" }),
  authKey: string | null = KEY,
) {
  const calls = { onDismiss: vi.fn(), onSucceeded: vi.fn(), onFailed: vi.fn() };
  const view = renderInApp(
    <BundleTerminal draft={draft} authKey={authKey} explorerUrl={null} {...calls} />,
  );
  return { ...calls, view };
}

const lines = () => screen.queryAllByTestId("terminal-line").map((line) => line.textContent);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date(2030, 0, 1, 12, 34, 56));
});

describe("BundleTerminal", () => {
  it("appends each launch_status line with the time it arrived", () => {
    renderTerminal();
    say("Launching Moon Cat (MCAT)...");
    say("PASSED checks");

    expect(lines()).toHaveLength(2);
    expect(lines()[0]).toContain("12:34:56");
    expect(lines()[0]).toContain("Launching Moon Cat (MCAT)...");
    expect(lines()[1]).toContain("PASSED checks");
  });

  it("writes every address in a line checksummed, linked to its page, as other screens do", () => {
    renderTerminal();
    const wallet = "0x9aa694244134a23d48408760eec690c53cdaf4b0";
    say(`SUCCESS buy by wallet ${wallet}: 0x${"ab".repeat(32)}`);

    const [line] = screen.getAllByTestId("terminal-line");
    expect(line?.textContent).toContain(`buy by wallet ${getAddress(wallet)}:`);
    expect(line?.textContent).not.toContain(wallet);
    const link = within(line as HTMLElement).getByRole("link", { name: getAddress(wallet) });
    expect(link.getAttribute("href")).toBe(`/address/${getAddress(wallet)}`);
  });

  it("asks for a list refresh 10 seconds after the success line", async () => {
    const { onSucceeded } = renderTerminal();
    say(SUCCESS_LINE);
    expect(screen.getByTestId("terminal-outcome").textContent).toBe("Launch complete");

    await advance(9_900);
    expect(onSucceeded).not.toHaveBeenCalled();
    await advance(100);
    expect(onSucceeded).toHaveBeenCalledTimes(1);
  });

  it("toasts 'Launch failed - check terminal for details' on the failure line", async () => {
    renderTerminal();
    say(FAILURE_LINE);
    await advance(0);

    expect(toastTexts()).toEqual(["Launch failed - check terminal for details"]);
  });

  it("closes 30 seconds after the failure line", async () => {
    const { onFailed } = renderTerminal();
    say(FAILURE_LINE);

    await advance(29_900);
    expect(onFailed).not.toHaveBeenCalled();
    await advance(100);
    expect(onFailed).toHaveBeenCalledTimes(1);
  });

  it("keeps waiting after a builder's refusal that mentions the launch", async () => {
    const { onFailed, onSucceeded } = renderTerminal();
    say("ERROR builder blockrazor refused bundle 1: launch tx underpriced");
    await advance(0);
    expect(toastTexts()).toEqual([]);
    expect(screen.getByTestId("terminal-outcome").textContent?.trim()).toBe("launching...");

    say(SUCCESS_LINE);
    await advance(30_000);
    expect(onFailed).not.toHaveBeenCalled();
    expect(onSucceeded).toHaveBeenCalledTimes(1);
  });

  it("takes an executed draft as success when the line was missed", async () => {
    const { onSucceeded, view } = renderTerminal();
    const executed = draftFixture({ status: "executed" });
    view.rerender(
      <BundleTerminal
        draft={executed}
        authKey={KEY}
        explorerUrl={null}
        onDismiss={() => {}}
        onSucceeded={onSucceeded}
        onFailed={() => {}}
      />,
    );

    await advance(10_000);
    expect(onSucceeded).toHaveBeenCalledTimes(1);
  });

  it("does not listen and says so without a stored key", () => {
    renderTerminal(draftFixture({ status: "executing" }), null);
    say(SUCCESS_LINE);

    expect(lines()).toEqual([]);
    const log = screen.getByTestId("bundle-terminal");
    expect(within(log).getByText(/No stored access key/)).toBeTruthy();
  });
});
