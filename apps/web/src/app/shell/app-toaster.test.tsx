import { act, render } from "@testing-library/react";
import toast from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { AppToaster } from "./app-toaster.tsx";

/** A page header whose bottom edge is `bottom` px down the viewport (jsdom has no layout). */
const headerAt = (bottom: number) => {
  const header = document.createElement("header");
  header.getBoundingClientRect = () => ({ bottom }) as DOMRect;
  document.body.appendChild(header);
  return header;
};

afterEach(() => {
  act(() => toast.remove());
  for (const header of document.querySelectorAll("header")) header.remove();
});

const toasterTop = () => (document.querySelector("[data-rht-toaster]") as HTMLElement).style.top;

describe("the toaster", () => {
  it("shows toasts below the news banner and the menu, never over them", () => {
    headerAt(97);
    render(<AppToaster />);
    act(() => {
      toast("Draft saved");
    });

    expect(toasterTop()).toBe("105px");
  });

  it("follows the menu as the page scrolls and the banner goes out of view", () => {
    const header = headerAt(97);
    render(<AppToaster />);
    header.getBoundingClientRect = () => ({ bottom: 54 }) as DOMRect;
    act(() => {
      window.dispatchEvent(new Event("scroll"));
    });

    expect(toasterTop()).toBe("62px");
  });
});
