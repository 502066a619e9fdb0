import { useEffect, useState } from "react";
import toast, {
  type Renderable,
  resolveValue,
  ToastBar,
  Toaster,
  useToasterStore,
} from "react-hot-toast";
import { toastsOverLimit } from "./toast-limit.ts";
import { MAX_VISIBLE_TOASTS, TOAST_OPTIONS, TOAST_POSITION } from "./toast-options.ts";

/** "Title\nhint" messages (the api client's) render as a bold title over a dim hint. */
function ToastText({ message }: { message: Renderable }) {
  if (typeof message !== "string" || !message.includes("\n")) return message;
  const [title, ...rest] = message.split("\n");
  return (
    <span className="flex flex-col gap-0.5 text-left">
      <span className="font-semibold">{title}</span>
      <span className="text-dim">{rest.join(" ")}</span>
    </span>
  );
}

/** Space between the menu's bottom edge and the first toast; the top without a menu. */
const GAP_PX = 8;
const NO_HEADER_TOP_PX = 16;

/**
 * Where toasts start: just below the page's header (the sticky menu, with the news banner above
 * it while that is in view), so a toast never covers the LOCAL banner or the menu. Measured again
 * when a toast comes, on scroll and on resize.
 */
function useBelowHeader(toastCount: number): number {
  const [top, setTop] = useState(NO_HEADER_TOP_PX);
  useEffect(() => {
    void toastCount;
    const measure = () => {
      const header = document.querySelector("header");
      setTop(
        header
          ? Math.max(0, Math.round(header.getBoundingClientRect().bottom)) + GAP_PX
          : NO_HEADER_TOP_PX,
      );
    };
    measure();
    window.addEventListener("scroll", measure, { passive: true });
    window.addEventListener("resize", measure);
    return () => {
      window.removeEventListener("scroll", measure);
      window.removeEventListener("resize", measure);
    };
  }, [toastCount]);
  return top;
}

export function AppToaster() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    for (const t of toastsOverLimit(toasts, MAX_VISIBLE_TOASTS)) toast.dismiss(t.id);
  }, [toasts]);
  const top = useBelowHeader(toasts.length);

  return (
    <Toaster position={TOAST_POSITION} toastOptions={TOAST_OPTIONS} containerStyle={{ top }}>
      {(t) => (
        <ToastBar toast={t}>
          {({ icon }) => (
            <>
              {icon}
              <div className="mx-2 my-1 flex-1" {...t.ariaProps}>
                <ToastText message={resolveValue(t.message, t)} />
              </div>
            </>
          )}
        </ToastBar>
      )}
    </Toaster>
  );
}
