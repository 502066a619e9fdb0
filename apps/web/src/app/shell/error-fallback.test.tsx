import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppErrorBoundary, ErrorFallback } from "./error-fallback.tsx";

const failure = () => {
  const error = new Error("The draft list could not be read");
  error.stack = "Error: The draft list could not be read\n    at DraftsPage (drafts-page.tsx:42:7)";
  return error;
};

function Broken(): never {
  throw failure();
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("ErrorFallback", () => {
  it("prints the error's message", () => {
    render(<ErrorFallback error={failure()} />);

    expect(screen.getByText("The draft list could not be read")).toBeTruthy();
  });

  it("prints the error's stack", () => {
    render(<ErrorFallback error={failure()} />);

    const stack = screen.getByText(/at DraftsPage \(drafts-page\.tsx:42:7\)/);
    expect(stack.tagName).toBe("PRE");
    expect(stack.textContent).toBe(failure().stack);
  });

  it("prints a thrown value that is not an Error", () => {
    render(<ErrorFallback error="socket closed" />);

    expect(screen.getByText("socket closed")).toBeTruthy();
  });
});

describe("AppErrorBoundary", () => {
  it("shows the fallback with the message and stack of what a child threw", () => {
    // React reports the caught error on the console; the boundary's job is the screen.
    vi.spyOn(console, "error").mockImplementation(() => {});
    render(
      <AppErrorBoundary>
        <Broken />
      </AppErrorBoundary>,
    );

    expect(screen.getByRole("alert").textContent).toContain("The draft list could not be read");
    expect(screen.getByText(/at DraftsPage/).tagName).toBe("PRE");
  });
});
