import { TOAST_DURATION_MS, TOAST_LIMIT } from "@bundler/shared";
import { useEffect } from "react";
import toast, {
  type Renderable,
  resolveValue,
  ToastBar,
  Toaster,
  useToasterStore,
} from "react-hot-toast";
import { toastsOverLimit } from "./toast-limit.ts";

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

export function AppToaster() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    for (const t of toastsOverLimit(toasts, TOAST_LIMIT)) toast.dismiss(t.id);
  }, [toasts]);

  return (
    <Toaster
      position="top-center"
      toastOptions={{
        duration: TOAST_DURATION_MS.blank,
        success: {
          duration: TOAST_DURATION_MS.success,
          iconTheme: { primary: "#3fd17a", secondary: "#090b0a" },
        },
        error: {
          duration: TOAST_DURATION_MS.error,
          iconTheme: { primary: "#ff5f56", secondary: "#090b0a" },
        },
        style: {
          background: "#151a19",
          color: "#d8dedb",
          border: "1px solid #34403d",
          borderRadius: "4px",
          fontFamily: "inherit",
          fontSize: "13px",
          maxWidth: "480px",
        },
      }}
    >
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
