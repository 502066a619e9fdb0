import { fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { advance, renderInApp, settle } from "../../../testing/render.tsx";
import { AuthContext, type AuthContextValue } from "../hooks/use-auth.ts";
import { GeneratedKeyStep } from "./generated-key-step.tsx";

const KEY = "lbk_generated-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const writeText = vi.fn(async (_text: string) => {});

function renderStep() {
  const auth = {
    state: { status: "anonymous" },
    saveSession: vi.fn(async () => {}),
    startSession: vi.fn(),
    logout: async () => {},
    getDeviceId: async () => "device-0001",
    retry: () => {},
  } satisfies AuthContextValue;
  renderInApp(
    <AuthContext.Provider value={auth}>
      <GeneratedKeyStep accessKey={KEY} />
    </AuthContext.Provider>,
  );
  return auth;
}

const continueButton = () =>
  screen.getByRole("button", { name: "Continue to App" }) as HTMLButtonElement;

beforeEach(() => {
  vi.useFakeTimers();
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
});
afterEach(() => {
  writeText.mockClear();
  vi.restoreAllMocks();
});

describe("the new key's screen", () => {
  it("stays up, without logging in, long after two seconds", async () => {
    const auth = renderStep();
    await advance(60_000);
    expect(screen.getByTestId("generated-key").textContent).toBe(KEY);
    expect(auth.startSession).not.toHaveBeenCalled();
  });

  it("keeps Continue to App disabled until the key is copied or downloaded", async () => {
    renderStep();
    await settle();
    expect(continueButton().disabled).toBe(true);
    expect(screen.getByText("Copy or download the key to continue.")).toBeTruthy();
  });

  it("enables Continue to App once the key is copied, and logs in with it", async () => {
    const auth = renderStep();
    fireEvent.click(screen.getByRole("button", { name: "Copy access key" }));
    await settle();

    expect(writeText).toHaveBeenCalledWith(KEY);
    fireEvent.click(continueButton());
    expect(auth.startSession).toHaveBeenCalledWith({ key: KEY, role: "user" });
  });

  it("enables Continue to App once the key is downloaded as a file holding it", async () => {
    // jsdom's FileReader answers on a timer: read the file in real time.
    vi.useRealTimers();
    const files: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      files.push(blob as Blob);
      return "blob:key";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    renderStep();

    fireEvent.click(screen.getByRole("button", { name: "Download access key" }));

    await vi.waitFor(() => expect(continueButton().disabled).toBe(false));
    expect(files).toHaveLength(1);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(files[0] as Blob);
    });
    expect(text.trim()).toBe(KEY);
  });
});
